// Running one check from a serialisable job description: the messages between
// whoever schedules runs (the service's main thread) and whoever executes them
// (a worker thread here; a `checkwall runner` process later). Every message is
// plain data (structured-clone and JSON safe), so the same protocol crosses a
// thread, a pipe or HTTP.
//
//   scheduler -> runner   { kind: 'runs', runs: [{ id, job }] }
//                                                  run these, answer each with its id; the
//                                                  runs posted in one turn go in one message
//   scheduler -> runner   { kind: 'abort', id }        stop that run now (the service is stopping)
//   runner -> scheduler   { kind: 'results', results: [{ id, result }] }
//                                                  exactly one result per run, even when aborted;
//                                                  results finished close together in one message
//   runner -> scheduler   { kind: 'ready' }            a worker thread has warmed its HTTP client
//
// A failed check is a result with status "failed" and an `error`, never a
// failed message. Ids are the scheduler's, unique among its runs in flight.
// The job carries the account's id only: a runner never sees API keys.
import type { CheckResult, Trigger } from '../../api/schemas/index.js';
import type { CheckConfig, RunLocation } from '../config/schema.js';
import type { RunCheck } from './types.js';
import { runHttpCheck } from './http.js';
import { finishResult, namedError, startFrame } from './result.js';
import { runTcpCheck } from './tcp.js';

export const RUN_PROTOCOL_VERSION = 1;

/** Everything needed to run a check once, and nothing secret. */
export interface RunJob {
  accountId: string;
  check: CheckConfig;
  location: RunLocation;
  triggeredBy: Trigger;
  /** Response bodies are kept up to this many bytes. */
  maxStoredBodyBytes: number;
}

export type ToRunner =
  { kind: 'runs'; runs: Array<{ id: number; job: RunJob }> } | { kind: 'abort'; id: number };
export type FromRunner =
  { kind: 'results'; results: Array<{ id: number; result: CheckResult }> } | { kind: 'ready' };

/** The check types a job can describe: those measured over the network, with no shared state. */
export const JOB_CHECK_TYPES: ReadonlyArray<CheckConfig['type']> = ['api', 'url', 'tcp'];

export function toJob(
  accountId: string,
  check: CheckConfig,
  location: RunLocation,
  triggeredBy: Trigger,
  maxStoredBodyBytes: number,
): RunJob {
  // Only what a result names: a remote location's runner token stays in the service.
  const where = { id: location.id, name: location.name, region: location.region };
  return { accountId, check, location: where, triggeredBy, maxStoredBodyBytes };
}

/** Runs a job where this code runs; resolves with its result, whatever happens. */
export function executeJob(job: RunJob, signal: AbortSignal): Promise<CheckResult> {
  const ctx = {
    // Heartbeats are judged where pings are stored, never in a job.
    maxStoredBodyBytes: job.maxStoredBodyBytes,
    signal,
    now: Date.now,
  };
  const run: RunCheck | undefined =
    job.check.type === 'tcp'
      ? runTcpCheck
      : JOB_CHECK_TYPES.includes(job.check.type)
        ? runHttpCheck
        : undefined;
  if (!run) return Promise.resolve(runnerError(job, `${job.check.type} checks do not run from a job`));
  // Runners return failures as results; a throw is a bug, still answered with a result.
  return run({ id: job.accountId }, job.check, job.location, ctx, job.triggeredBy).catch((e: unknown) =>
    runnerError(job, `the runner failed: ${(e as Error).message}`),
  );
}

/** A failed result for a run that could not be made (no runner, a dead worker). */
export function runnerError(job: RunJob, message: string): CheckResult {
  const frame = startFrame(job.check, job.location, job.triggeredBy);
  const error = namedError('RunnerError', message);
  const request = { method: 'GET', url: job.check.target, headers: {}, body: null };
  return finishResult(frame, { request, response: null, timing: {}, assertions: [], error });
}
