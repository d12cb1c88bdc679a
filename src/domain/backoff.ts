// How long to wait before trying again: exponential from `baseMs`, capped at
// `maxMs`, with "equal jitter" (half the step fixed, half random), so many
// consoles that failed together do not come back together. Shared by the
// client's retries of one read and the poller's backoff between polls.
export function backoffDelay(attempt: number, baseMs: number, maxMs: number, random = Math.random): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** attempt);
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}
