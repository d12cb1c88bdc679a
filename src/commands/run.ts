// `checkwall run`: runs the selected checks now, waits for every result and
// exits as a deploy gate reads it: 0 every run passed, 1 any failed or was
// skipped, 2 the runs could not be made or awaited (usage, connection, timeout,
// or a selection the service refused).
import type { CheckRun } from '../api/schemas/actions.js';
import type { MonitoringClient } from '../api/client.js';
import { describeError, isApiError } from '../api/errors.js';
import { failureCause } from '../domain/breakdown.js';
import { systemClock, type Clock } from '../domain/clock.js';
import { sanitize } from '../domain/sanitize.js';
import {
  exitCodeOf,
  outcomeOf,
  reportJson,
  reportLines,
  type Failure,
  type RunReport,
} from './run-report.js';
import { formatTimeout, parseRunArgs, type RunArgs } from './run-args.js';
import { waitForRuns } from './run-wait.js';
import { scriptClient } from './settings.js';
import { RUN_USAGE } from './usage.js';

/** Where the command writes and what it reads besides its arguments; tests give their own. */
export interface RunIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Progress goes to stderr only when a person watches it. */
  stderrIsTTY: boolean;
  env: NodeJS.ProcessEnv;
  clock: Clock;
  pollMs: number;
}

const processIo = (): RunIo => ({
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  stderrIsTTY: Boolean(process.stderr.isTTY),
  env: process.env,
  clock: systemClock,
  pollMs: 1_000,
});

const WHO = 'checkwall run';

export async function runRun(argv: string[], io: RunIo = processIo()): Promise<number> {
  const parsed = parseRunArgs(argv);
  if ('error' in parsed) {
    io.stderr(`${WHO}: ${parsed.error}\n\n${RUN_USAGE}\n`);
    return 2;
  }
  const client = scriptClient(WHO, parsed.flags, io.env, io.stderr);
  if (!client) return 2;
  try {
    return await runAndReport(client, parsed, io);
  } catch (error) {
    io.stderr(`${WHO}: ${sanitize(isApiError(error) ? describeError(error) : String(error))}\n`);
    return 2;
  } finally {
    await client.close();
  }
}

async function runAndReport(client: MonitoringClient, args: RunArgs, io: RunIo): Promise<number> {
  const deadline = io.clock.now() + args.timeoutMs;
  const created = await createWithin(client, args, io.clock, deadline);
  if (created === undefined) {
    io.stderr(`${WHO}: timed out after ${formatTimeout(args.timeoutMs)} before the service took the runs\n`);
    return 2;
  }
  if (created.length === 0) {
    io.stderr(`${WHO}: no check matches the selection\n`);
    return 2;
  }
  const progress = io.stderrIsTTY ? progressLine(io, created.length) : undefined;
  const waited = await waitForRuns(client, created, {
    clock: io.clock,
    deadline,
    pollMs: io.pollMs,
    onRound: progress?.show,
  });
  progress?.clear();
  const failures = await readFailures(client, waited.runs);
  const reports: RunReport[] = waited.runs.map((run) => ({
    run,
    outcome: outcomeOf(run),
    failure: failures.get(run.runId),
  }));
  io.stdout(args.json ? `${reportJson(reports)}\n` : `${reportLines(reports).join('\n')}\n`);
  if (waited.timedOut) {
    const left = reports.filter((r) => r.outcome === 'unfinished').length;
    const since = waited.lastError ? `; the last read failed: ${describeError(waited.lastError)}` : '';
    io.stderr(
      sanitize(
        `${WHO}: timed out after ${formatTimeout(args.timeoutMs)}: ${left} of ${reports.length} runs unfinished${since}`,
      ) + '\n',
    );
  }
  return exitCodeOf(reports);
}

/** The created runs, or undefined when the service did not answer before the deadline. */
async function createWithin(
  client: MonitoringClient,
  args: RunArgs,
  clock: Clock,
  deadline: number,
): Promise<CheckRun[] | undefined> {
  const abort = new AbortController();
  const timer = clock.setTimeout(() => abort.abort(), deadline - clock.now());
  try {
    return (await client.createCheckRuns(args.body, { signal: abort.signal })).data;
  } catch (error) {
    if (abort.signal.aborted) return undefined;
    throw error;
  } finally {
    clock.clearTimeout(timer);
  }
}

/**
 * What each finished run's result says: for a failed one its cause, for every one
 * its time. One read per check that finished a run (its runs triggered by the API
 * since the first was queued): a passed run's time is on its result, not its record.
 */
async function readFailures(
  client: MonitoringClient,
  runs: readonly CheckRun[],
): Promise<Map<string, Failure>> {
  const finished = runs.filter((r) => outcomeOf(r) !== 'unfinished' && r.resultId !== undefined);
  const byCheck = new Map<string, CheckRun[]>();
  for (const run of finished) byCheck.set(run.checkId, [...(byCheck.get(run.checkId) ?? []), run]);
  const found = new Map<string, Failure>();
  await Promise.all(
    [...byCheck].map(async ([checkId, mine]) => {
      const from = mine.map((r) => r.queuedAt).sort()[0];
      try {
        const { data } = await client.checkResults(checkId, {
          from,
          triggeredBy: 'api',
          limit: 100,
          includeSummary: false,
        });
        for (const run of mine) {
          const result = data.find((r) => r.id === run.resultId);
          const cause = outcomeOf(run) === 'failed' && result ? failureCause(result) : '';
          if (result) found.set(run.runId, { cause, durationMs: result.duration });
        }
      } catch (error) {
        // A passed run needs no cause: only its time is missing.
        const cause = `its result could not be read: ${describeError(error)}`;
        for (const run of mine) if (outcomeOf(run) === 'failed') found.set(run.runId, { cause });
      }
    }),
  );
  return found;
}

function progressLine(io: RunIo, total: number) {
  const started = io.clock.now();
  return {
    show: (runs: readonly CheckRun[]) => {
      const done = runs.filter((r) => outcomeOf(r) !== 'unfinished').length;
      const seconds = Math.round((io.clock.now() - started) / 1000);
      io.stderr(`\r\u001b[K${WHO}: ${done} of ${total} runs finished (${seconds} s)`);
    },
    clear: () => io.stderr('\r\u001b[K'),
  };
}
