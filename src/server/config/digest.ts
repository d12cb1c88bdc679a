// Secrets (API keys, runner tokens) are looked up by their whole SHA-256 digest
// and compared in constant time: no prefix of a digest names a secret, and how
// long a refusal takes says nothing of how close a guess was.
import { createHash, timingSafeEqual } from 'node:crypto';

export const digestOf = (secret: string): Buffer => createHash('sha256').update(secret).digest();

/** Whether two digests are the same, in a time that does not depend on where they differ. */
export const sameDigest = (a: Buffer, b: Buffer): boolean => a.length === b.length && timingSafeEqual(a, b);

/**
 * A map from secrets to what they open that holds only their digests: `get` finds the
 * entry by the presented secret's digest and confirms it with timingSafeEqual.
 */
export function createSecretIndex<T>() {
  const entries = new Map<string, { digest: Buffer; value: T }>();
  return {
    set(secret: string, value: T) {
      this.setDigest(digestOf(secret), value);
    },
    /** A secret known only by its digest (a key configured as keySha256). */
    setDigest(digest: Buffer, value: T) {
      entries.set(digest.toString('hex'), { digest, value });
    },
    get(secret: string): T | undefined {
      const digest = digestOf(secret);
      const found = entries.get(digest.toString('hex'));
      return found && sameDigest(found.digest, digest) ? found.value : undefined;
    },
    clear: () => entries.clear(),
  };
}
