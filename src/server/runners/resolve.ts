// A check's host name to an address: the system's resolver (getaddrinfo, so
// /etc/hosts counts, as it does for the team's own tools), bounded by the run's
// signal. getaddrinfo cannot be cancelled, and a resolver that never answers
// held a TCP run past its timeout until this raced it.
import { lookup } from 'node:dns/promises';

/** Resolves one host name to one address, or rejects as Node's lookup does (ENOTFOUND…). */
export type Lookup = (host: string) => Promise<{ address: string }>;

export const systemLookup: Lookup = (host) => lookup(host);

/** The address of `host`, or the signal's reason once it aborts first. */
export function resolveWithin(
  host: string,
  signal: AbortSignal,
  resolve: Lookup = systemLookup,
): Promise<string> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise((done, fail) => {
    const abort = () => fail(signal.reason as Error);
    signal.addEventListener('abort', abort, { once: true });
    resolve(host).then(
      ({ address }) => (signal.removeEventListener('abort', abort), done(address)),
      (error: Error) => (signal.removeEventListener('abort', abort), fail(error)),
    );
  });
}

/** What a timed-out run says when it stopped waiting for the resolver. */
export function noAnswer(host: string, timeoutMs: number): string {
  return `no DNS answer for ${host} within ${timeoutMs} ms`;
}
