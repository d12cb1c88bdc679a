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

type Decoder = zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress;

const DECODERS: Record<string, () => Decoder> = {
  gzip: () => zlib.createGunzip(),
  'x-gzip': () => zlib.createGunzip(),
  deflate: () => zlib.createInflate(),
  br: () => zlib.createBrotliDecompress(),
};

/**
 * The decoders of a content-encoding, in the order they undo it (`gzip, br` was gzipped,
 * then compressed with br: br is undone first), piped into one another; or the first
 * coding it cannot decode.
 */
function decodersFor(encoding: string | undefined): Decoder[] | { unknown: string } {
  const codings = (encoding ?? '')
    .toLowerCase()
    .split(',')
    .map((c) => c.trim())
    .filter((c) => c !== '' && c !== 'identity')
    .reverse();
  const unknown = codings.find((c) => !Object.hasOwn(DECODERS, c));
  if (unknown !== undefined) return { unknown };
  const decoders = codings.map((c) => DECODERS[c]!());
  decoders.forEach((d, i) => i > 0 && decoders[i - 1]!.pipe(d));
  return decoders;
}

/**
 * A sink for a body with this content-encoding. One in an encoding it cannot decode is
 * kept as received, with a decodeError: its bytes are not its text, and a body assertion
 * judged on them (NOT_CONTAINS) would pass whatever the page says.
 */
export function createBodySink(encoding: string | undefined, limits: BodyLimits): BodySink {
  const chain = decodersFor(encoding);
  const decoders = 'unknown' in chain ? [] : chain;
  const decoder = decoders[0] ?? null;
  const last = decoders.at(-1);
  const kept: Buffer[] = [];
  let keptBytes = 0;
  let decoded = 0;
  let size = 0;
  let stopped = false;
  let decodeError =
    'unknown' in chain
      ? `in ${chain.unknown}, which the probe does not decode (it decodes gzip, deflate and br)`
      : undefined;
  const keep = (chunk: Buffer) => {
    decoded += chunk.length;
    if (keptBytes < limits.keep) {
      const part = chunk.subarray(0, limits.keep - keptBytes);
      kept.push(part);
      keptBytes += part.length;
    }
  };
  const finished = last
    ? new Promise<void>((resolve) => {
        last.on('data', (chunk: Buffer) => {
          keep(chunk);
          if (decoded >= limits.count && !stopped) {
            stopped = true;
            for (const d of decoders) d.destroy();
          }
        });
        const coding = encoding?.trim().toLowerCase();
        for (const d of decoders)
          d.once('error', (e) => ((decodeError ??= `not valid ${coding}: ${e.message}`), resolve()));
        last.once('close', resolve);
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
      // No body (a HEAD's answer, a 204, a 304) is empty in any encoding: a decoder ended
      // with no input says "unexpected end of file".
      if (size === 0) for (const d of decoders) d.destroy();
      else if (decoder && !decoder.destroyed) decoder.end();
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
