// Retries of idempotent reads: after network errors, timeouts, 5xx and 429, with
// exponential backoff and jitter, waiting what Retry-After says when it is short
// enough; a longer one goes to the caller (ApiError.retryAfterMs). Never a POST:
// the client only wraps GETs in this.
import { backoffDelay } from '../domain/backoff.js';
import { ApiError } from './errors.js';

export interface RetryPolicy {
  /** Further attempts after the first, for GETs only. */
  retries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the error goes to the caller. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  retries: 2,
  baseDelayMs: 250,
  maxDelayMs: 4_000,
  maxRetryAfterMs: 10_000,
};

export async function withRetries<T>(
  attempt: () => Promise<T>,
  policy: RetryPolicy,
  signal?: AbortSignal,
): Promise<T> {
  for (let n = 0; ; n++) {
    try {
      return await attempt();
    } catch (error) {
      const wait = retryDelay(error, n, policy);
      if (wait === undefined || signal?.aborted) throw error;
      await sleep(wait, signal);
    }
  }
}

/** How long to wait before attempt n+1, or undefined when we should not retry. */
function retryDelay(error: unknown, n: number, policy: RetryPolicy): number | undefined {
  if (!(error instanceof ApiError) || !error.retryable || n >= policy.retries) return undefined;
  if (error.retryAfterMs !== undefined) {
    return error.retryAfterMs <= policy.maxRetryAfterMs ? error.retryAfterMs : undefined;
  }
  return backoffDelay(n, policy.baseDelayMs, policy.maxDelayMs);
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
