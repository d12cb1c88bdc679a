// PNG bytes to pixels, with a maintained decoder (pngjs), for the half-block picture.
import { PNG } from 'pngjs';
import type { RgbaImage } from './half-block.js';

/** The decoded picture, or an Error saying why the bytes are not one. */
export function decodePng(bytes: Uint8Array): RgbaImage | Error {
  try {
    const png = PNG.sync.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    return { width: png.width, height: png.height, data: png.data };
  } catch (error) {
    return new Error(`not a PNG image: ${(error as Error).message}`);
  }
}
