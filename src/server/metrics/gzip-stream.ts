// One gzip stream made of pieces compressed apart (as pigz does): each family's text
// is raw deflate ending in a sync flush (whole bytes, no final block, no reference to
// another piece's text), so pieces kept from an earlier snapshot and pieces written now
// follow one another as one deflate stream. One gzip header, the last piece finishing
// the stream, and a trailer with the CRC-32 and length of all the text. One member:
// a client that reads only the first member of a gzip body (curl --compressed does)
// gets everything.
import { promisify } from 'node:util';
import { constants, crc32, deflateRaw as zlibDeflateRaw, inflateRaw as zlibInflateRaw } from 'node:zlib';

const deflateRaw = promisify(zlibDeflateRaw);
const inflateRaw = promisify(zlibInflateRaw);

/**
 * Text compressed apart, to be followed by more: raw deflate, sync-flushed, with its
 * text's CRC-32 and length.
 */
export interface DeflatedPieces {
  deflate: Buffer;
  crc: number;
  size: number;
}

/** A piece that more pieces may follow. */
export const deflatePiece = (text: Buffer): Promise<Buffer> =>
  deflateRaw(text, { finishFlush: constants.Z_SYNC_FLUSH });

/** Pieces one after another: their text's CRC-32 is taken over all of it, in order. */
export function joinPieces(pieces: ReadonlyArray<{ text: Buffer; deflate: Buffer }>): DeflatedPieces {
  let crc = 0;
  let size = 0;
  for (const piece of pieces) {
    crc = continued(crc, piece.text);
    size += piece.text.length;
  }
  return { deflate: Buffer.concat(pieces.map((p) => p.deflate)), crc, size };
}

// Node 20.20's zlib.crc32 answers 0, not the value it continues, for an empty buffer that zlib
// has compressed (seen with the empty tail of a scrape): an empty text leaves the CRC as it is.
const continued = (crc: number, text: Buffer) => (text.length === 0 ? crc : crc32(text, crc));

// ID1 ID2, deflate, no flags, no time, no extra flags, OS unknown (RFC 1952).
const HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);

/** One gzip member: the pieces, then `tail` compressed now, ending the stream. */
export async function gzipOf(pieces: DeflatedPieces, tail: Buffer): Promise<Buffer> {
  const last = await deflateRaw(tail);
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(continued(pieces.crc, tail), 0);
  trailer.writeUInt32LE((pieces.size + tail.length) % 2 ** 32, 4);
  return Buffer.concat([HEADER, pieces.deflate, last, trailer]);
}

/** The pieces' text. */
export const inflatePieces = (pieces: DeflatedPieces): Promise<Buffer> =>
  inflateRaw(pieces.deflate, { finishFlush: constants.Z_SYNC_FLUSH });
