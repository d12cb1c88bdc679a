// A response body as undici parses it: its size on the wire, and its text decoded
// (gzip, deflate, br) for assertions and the stored body. The decoded text is kept
// up to `keep` bytes and counted up to `count`; past the count nothing more is
// fed to the decoder, so a small body that inflates without end (a decompression
// bomb) costs no more than the count.
import zlib from 'node:zlib';

export interface BodyLimits {
  /** Decoded bytes kept for assertions. */
  keep: number;
  /** Decoded bytes counted; decoding stops here. */
  count: number;
}

export interface DecodedBody {
  text: string;
  /** Bytes received on the wire (as sent: compressed when encoded). */
  size: number;
  /** Bytes decoded, up to the count (`counted: false` when it stopped there). */
  decodedSize: number;
  counted: boolean;
  /** Why the body could not be decoded, if it could not. */
  decodeError?: string | undefined;
}

export interface BodySink {
  write(chunk: Buffer): void;
  /** Bytes received on the wire so far. */
  readonly size: number;
  /** The decoded body, once the decoder has caught up. */
  done(): Promise<DecodedBody>;
}

function decoderFor(encoding: string): zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress | null {
  switch (encoding) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip();
    case 'deflate':
      return zlib.createInflate();
    case 'br':
      return zlib.createBrotliDecompress();
    default:
      return null;
  }
}

/** A sink for a body with this content-encoding; one it cannot decode is kept as received. */
export function createBodySink(encoding: string | undefined, limits: BodyLimits): BodySink {
  const coding = encoding?.trim().toLowerCase() ?? '';
  const decoder = coding === '' || coding === 'identity' ? null : decoderFor(coding);
  const kept: Buffer[] = [];
  let keptBytes = 0;
  let decoded = 0;
  let size = 0;
  let stopped = false;
  let decodeError: string | undefined;
  const keep = (chunk: Buffer) => {
    decoded += chunk.length;
    if (keptBytes < limits.keep) {
      const part = chunk.subarray(0, limits.keep - keptBytes);
      kept.push(part);
      keptBytes += part.length;
    }
  };
  const finished = decoder
    ? new Promise<void>((resolve) => {
        decoder.on('data', (chunk: Buffer) => {
          keep(chunk);
          if (decoded >= limits.count && !stopped) {
            stopped = true;
            decoder.destroy();
          }
        });
        decoder.once('error', (e) => ((decodeError = `not valid ${coding}: ${e.message}`), resolve()));
        decoder.once('close', resolve);
      })
    : Promise.resolve();
  return {
    write(chunk) {
      size += chunk.length;
      if (!decoder) return keep(chunk);
      // Past the count on the wire too, nothing more is queued for the decoder: its
      // input would wait in memory however fast the target sends.
      if (!stopped && !decoder.destroyed && size <= limits.count) decoder.write(chunk);
    },
    get size() {
      return size;
    },
    async done() {
      if (decoder && !decoder.destroyed) decoder.end();
      await finished;
      return {
        text: Buffer.concat(kept).toString('utf8'),
        size,
        decodedSize: Math.min(decoded, limits.count),
        counted: decoded < limits.count,
        decodeError,
      };
    },
  };
}
