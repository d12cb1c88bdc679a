// What `checkwall run` prints once it stops waiting: each run's outcome, one
// line per run (or JSON), and the exit code a deploy gate reads. Pure: the
// runs and the failures read for them come in, text goes out.
import type { CheckRun } from '../api/schemas/actions.js';
import { formatMs, NO_DATA } from '../domain/format.js';
import { displayWidth, sanitize } from '../domain/sanitize.js';

/**
 * `unfinished`: still queued or running when the wait ended. A gate passes only
 * on `passed`: a skipped run did not happen, so it proves nothing.
 */
export type Outcome = 'passed' | 'failed' | 'skipped' | 'unfinished';

/** What the run's result says: its first failed assertion or error (empty when it passed), and its duration. */
export interface Failure {
  cause: string;
  durationMs?: number | undefined;
}

export interface RunReport {
  run: CheckRun;
  outcome: Outcome;
  failure?: Failure | undefined;
}

export function outcomeOf(run: CheckRun): Outcome {
  switch (run.state) {
    case 'queued':
    case 'running':
      return 'unfinished';
    case 'skipped':
      return 'skipped';
    case 'done':
      // A finished run without a status is not a pass: only `success` is.
      return run.status === 'success' ? 'passed' : 'failed';
  }
}

export const isFinished = (run: CheckRun): boolean => outcomeOf(run) !== 'unfinished';

/** 0 every run passed, 1 any failed or was skipped, 2 any is unfinished (the wait timed out). */
export function exitCodeOf(reports: readonly RunReport[]): 0 | 1 | 2 {
  if (reports.some((r) => r.outcome === 'unfinished')) return 2;
  return reports.every((r) => r.outcome === 'passed') ? 0 : 1;
}

/** The run's own duration, when the service's record carries one beyond the contract. */
function runDuration(run: CheckRun): number | undefined {
  const value = (run as Record<string, unknown>)['duration'];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function why(report: RunReport): string {
  const { run, outcome, failure } = report;
  switch (outcome) {
    case 'passed':
      return '';
    case 'failed':
      return (
        failure?.cause || (run.status ? `result ${run.resultId ?? NO_DATA}` : 'finished without a status')
      );
    case 'skipped':
      return `not run: ${run.reason ?? 'the service gave no reason'}`;
    case 'unfinished':
      return `still ${run.state} when the wait ended`;
  }
}

/** One aligned line per run: outcome, check, location, time, and why it did not pass. Sanitised. */
export function reportLines(reports: readonly RunReport[]): string[] {
  const rows = reports.map((r) => [
    r.outcome,
    sanitize(r.run.checkId),
    sanitize(r.run.location),
    formatMs(r.failure?.durationMs ?? runDuration(r.run)),
    sanitize(why(r)),
  ]);
  const widths = [0, 1, 2, 3].map((i) => Math.max(...rows.map((row) => displayWidth(row[i]!))));
  return rows.map((row) =>
    row
      .map((cell, i) => {
        const room = widths[i];
        if (room === undefined) return cell;
        const pad = ' '.repeat(room - displayWidth(cell));
        return i === 3 ? pad + cell : cell + pad;
      })
      .join('  ')
      .trimEnd(),
  );
}

/** `--json`: the service's records as they came, each with its outcome and the failure read for it. */
export function reportJson(reports: readonly RunReport[]): string {
  const runs = reports.map(({ run, outcome, failure }) => ({
    ...run,
    outcome,
    ...(failure?.cause ? { failure: failure.cause } : {}),
    ...(failure ? { duration: failure.durationMs ?? runDuration(run) } : {}),
  }));
  return terminalSafeJson(runs);
}

// JSON.stringify escapes C0 controls but leaves DEL, C1 and bidi controls raw: a
// string from the network could still drive a terminal the output lands on.
// Escaping them too keeps the parsed value the same.
const RAW_CONTROLS = /[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

export function terminalSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(
    RAW_CONTROLS,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
