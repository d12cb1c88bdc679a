// A remote runner's claim token: its runner's id and a random part. A result comes
// back with it, so the runner that reports is named (as in touch) from the token alone.
import { randomUUID } from 'node:crypto';

// As api/schemas/runner.ts's runnerId.
const RUNNER_ID = /^[A-Za-z0-9._:-]{1,100}$/;

/** A fresh token for a claim by `runnerId` (`nonce`: the random part; tests fix it). */
export const claimToken = (runnerId: string, nonce: string = randomUUID()) => `${runnerId}:${nonce}`;

/** The parts of a token made by claimToken; undefined for any other string. */
export function parseClaimToken(token: string): { runnerId: string; nonce: string } | undefined {
  const cut = token.lastIndexOf(':');
  const runnerId = token.slice(0, cut);
  const nonce = token.slice(cut + 1);
  if (cut < 0 || nonce === '' || !RUNNER_ID.test(runnerId)) return undefined;
  return { runnerId, nonce };
}
