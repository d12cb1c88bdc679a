// The end of a job's output (its end says most), cut on a character's boundary: the bytes
// a cut character left behind are dropped, not shown as replacement marks.

/** The last `max` bytes of UTF-8 `bytes` (fewer when a character was cut), as text. */
export function utf8Tail(bytes: Uint8Array, max: number): string {
  if (bytes.length <= max) return new TextDecoder().decode(bytes);
  let start = bytes.length - max;
  // UTF-8 continuation bytes are 10xxxxxx: a character begins at the first byte that is not one.
  while (start < bytes.length && (bytes[start]! & 0xc0) === 0x80) start++;
  return new TextDecoder().decode(bytes.subarray(start));
}
