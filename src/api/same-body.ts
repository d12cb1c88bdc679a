// Answers that come back unchanged are not parsed again: the value parsed then is
// handed back, the very same object. "Unchanged" is a 304 to the ETag we sent
// (If-None-Match), or, from a server that sends no ETags, the same bytes as last
// time. A console polling a large account reads every status every interval,
// most of it unchanged while checks run hourly or nothing happens; parsing,
// validating and comparing it all again cost more than the rest of the console
// together (see BENCHMARKS.md, "The console").
import { createHash } from 'node:crypto';

export interface SameBodyMemo {
  /** The value parsed from these very bytes at this key last time, else a fresh `parse`. */
  parse<T>(key: string, bytes: Uint8Array, parse: () => T, etag?: string): T;
  /** The ETag of the answer remembered at this key, to send as If-None-Match. */
  etag(key: string): string | undefined;
  /** The value remembered at this key (after a 304), if any. */
  last<T>(key: string): T | undefined;
}

/** An identity check of a page, not a security measure: a server could only fool it into showing what it sent before. */
export function bodyDigest(bytes: Uint8Array): string {
  return createHash('sha1').update(bytes).digest('base64');
}

export function createSameBodyMemo(limit = 512): SameBodyMemo {
  const entries = new Map<string, { digest: string; value: unknown; etag: string | undefined }>();
  return {
    parse<T>(key: string, bytes: Uint8Array, parse: () => T, etag?: string): T {
      const digest = bodyDigest(bytes);
      const hit = entries.get(key);
      const value = hit?.digest === digest ? (hit.value as T) : parse(); // throws on a bad body: nothing is remembered
      entries.delete(key);
      entries.set(key, { digest, value, etag });
      if (entries.size > limit) entries.delete(entries.keys().next().value!);
      return value;
    },
    etag: (key) => entries.get(key)?.etag,
    last: <T>(key: string) => entries.get(key)?.value as T | undefined,
  };
}
