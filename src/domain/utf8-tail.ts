// The end of a job's output (its end says most), cut on a character's boundary: the bytes
// a cut character left behind are dropped, not shown as replacement marks. `utf8Tail`
// cuts what is whole; `createTail` keeps the end of a stream as it comes (a job's output
// in `checkwall exec`, a ping's body at the service) without holding all of it.

/** Where the text of `bytes` cut at `from` begins: past the continuation bytes (10xxxxxx) there. */
function charStart(bytes: Uint8Array, from: number): number {
  let start = Math.max(0, from);
  while (start < bytes.length && (bytes[start]! & 0xc0) === 0x80) start++;
  return start;
}

/** The last `max` bytes of UTF-8 `bytes` (fewer when a character was cut), as text. */
export function utf8Tail(bytes: Uint8Array, max: number): string {
  if (bytes.length <= max) return new TextDecoder().decode(bytes);
  return new TextDecoder().decode(bytes.subarray(charStart(bytes, bytes.length - max)));
}

/** Keeps the last `max` bytes of what is pushed, dropping whole chunks from the front. */
export function createTail(max: number) {
  const chunks: Buffer[] = [];
  let kept = 0;
  /** The last `max` bytes pushed (fewer when a character was cut), beginning on a whole character. */
  const bytes = (): Buffer => {
    const all = Buffer.concat(chunks);
    return all.length <= max ? all : all.subarray(charStart(all, all.length - max));
  };
  return {
    push(chunk: Buffer) {
      chunks.push(chunk);
      kept += chunk.length;
      while (chunks.length > 1 && kept - chunks[0]!.length >= max) kept -= chunks.shift()!.length;
    },
    bytes,
    text: () => bytes().toString('utf8'),
  };
}
