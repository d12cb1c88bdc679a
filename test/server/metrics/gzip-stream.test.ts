// Pieces compressed apart (one kept from an earlier snapshot, one written now) and a
// tail compressed at the scrape make one gzip member: gunzip reads the whole text, and
// the trailer's CRC-32 and length are the whole text's.
import { crc32, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { deflatePiece, gzipOf, inflatePieces, joinPieces } from '../../../src/server/metrics/gzip-stream.js';

const texts = ['# HELP a A.\n# TYPE a gauge\na 1\n\n', '# HELP b B.\n# TYPE b counter\nb{x="é"} 2\n\n'];

describe('one gzip stream of pieces', () => {
  it('reads as the whole text, in one member', async () => {
    const pieces = await Promise.all(
      texts.map(async (t) => {
        const text = Buffer.from(t);
        return { text, deflate: await deflatePiece(text) };
      }),
    );
    const joined = joinPieces(pieces);
    expect((await inflatePieces(joined)).toString()).toBe(texts.join(''));
    for (const tail of ['c 3\n', '']) {
      const whole = Buffer.from(texts.join('') + tail);
      const gzip = await gzipOf(joined, Buffer.from(tail));
      expect(gunzipSync(gzip).equals(whole)).toBe(true);
      expect(gzip.readUInt32LE(gzip.length - 8)).toBe(crc32(whole));
      expect(gzip.readUInt32LE(gzip.length - 4)).toBe(whole.length);
    }
  });
});
