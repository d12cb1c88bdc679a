// Waiting for on-demand runs: one batch read of every unfinished run per round
// (never one request per run), a round every `pollMs`, longer after an error
// (backoff, or what Retry-After asks), until every run finished or the deadline.
import type { CheckRun } from '../api/schemas/actions.js';
import type { MonitoringClient } from '../api/client.js';
import { ApiError } from '../api/errors.js';
import { backoffDelay } from '../domain/backoff.js';
import type { Clock } from '../domain/clock.js';
import { isFinished } from './run-report.js';

export interface WaitOptions {
  clock: Clock;
  /** Epoch ms: no read starts after it, and one under way is abandoned at it. */
  deadline: number;
  pollMs: number;
  /** The longest wait after errors, Retry-After included. */
  maxBackoffMs?: number;
  /** Every round's view of the runs, for a progress line. */
  onRound?: (runs: readonly CheckRun[]) => void;
}

export interface WaitResult {
  /** In the order the runs were created, each as last read. */
  runs: CheckRun[];
  timedOut: boolean;
  /** The last read's error, when the wait ended while reads failed. */
  lastError?: unknown;
}

export async function waitForRuns(
  client: MonitoringClient,
  created: readonly CheckRun[],
  options: WaitOptions,
): Promise<WaitResult> {
  const { clock, deadline, pollMs } = options;
  const maxBackoffMs = options.maxBackoffMs ?? 30_000;
  const latest = new Map(created.map((r) => [r.runId, r]));
  const current = () => [...latest.values()];
  let failures = 0;
  let lastError: unknown;
  let wait = pollMs;
  for (;;) {
    options.onRound?.(current());
    const pending = current().filter((r) => !isFinished(r));
    if (pending.length === 0) return { runs: current(), timedOut: false };
    const left = deadline - clock.now();
    if (left <= 0) return { runs: current(), timedOut: true, lastError };
    await pause(clock, Math.min(wait, left));
    if (clock.now() >= deadline) return { runs: current(), timedOut: true, lastError };
    const abort = new AbortController();
    const timer = clock.setTimeout(() => abort.abort(), deadline - clock.now());
    try {
      const { data } = await client.checkRuns(
        pending.map((r) => r.runId),
        { signal: abort.signal },
      );
      for (const run of data) if (latest.has(run.runId)) latest.set(run.runId, run);
      failures = 0;
      lastError = undefined;
      wait = pollMs;
    } catch (error) {
      if (abort.signal.aborted) return { runs: current(), timedOut: true, lastError };
      // A refusal that asking again cannot fix (400, 401, 403, 404, a body we cannot read) ends the wait.
      if (!(error instanceof ApiError) || !error.retryable) throw error;
      lastError = error;
      wait = Math.min(
        maxBackoffMs,
        Math.max(error.retryAfterMs ?? 0, backoffDelay(failures, pollMs * 2, maxBackoffMs)),
      );
      failures++;
    } finally {
      clock.clearTimeout(timer);
    }
  }
}

function pause(clock: Clock, ms: number): Promise<void> {
  return new Promise((resolve) => clock.setTimeout(resolve, ms));
}
