// `checkwall runner`: runs the checks of one remote location on this host for a
// service elsewhere (server/runners/remote-client.ts talks to it). No database: what it runs
// comes from the service, what it measures goes back to it.
import { hostname } from 'node:os';
import { parseArgs } from 'node:util';
import type { RunnerJob } from '../api/schemas/runner.js';
import { runnerTokenVariable } from '../server/config/load.js';
import { CheckConfigSchema, type CheckConfig } from '../server/config/schema.js';
import type { RunResult } from '../server/runners/types.js';
import { createBrowserRunner } from '../server/runners/browser.js';
import { browserMissing, chromiumPath } from '../server/runners/browser-launch.js';
import { createBrowserPool } from '../server/runners/browser-pool.js';
import { executeJob, runnerError, type RunJob } from '../server/runners/job-protocol.js';
import { createRunnerLoop, RunnerRefused } from '../server/runners/remote-client.js';

export const RUNNER_USAGE = `Usage: checkwall runner --service URL --location ID [options]

Runs the checks of one remote location (remote: true in the service's config)
from this host, for a checkwall service elsewhere: it takes the location's due
runs from the service, runs them here, and posts the results. It keeps no
database. api, url and tcp checks always run; browser and multistep checks run
when Chromium is installed here (else their results say it is missing).

  --service URL        the service's address, e.g. https://checkwall.example.com
  --location ID        the remote location this runner runs
  --token TOKEN        the location's runner token; better from the environment
                       (CHECKWALL_RUNNER_TOKEN, or CHECKWALL_RUNNER_TOKEN_<ID>),
                       as a command line is visible to other users
  --concurrency N      runs at once (default 4, at most 100)
  --runner-id NAME     how the service names this runner (default: host-pid)

While the service cannot be reached it backs off (up to 30 s) and keeps up to
1,000 finished results, posting them when it is back. One line per change of
state (connected, lost, back), none per run. SIGINT or SIGTERM: runs in flight
get 3 s to finish, then it exits 0.
Exit status: 0 after a stop, 2 for bad options or a token the service refuses.`;

const GRACE_MS = 3_000;

interface Options {
  service: string;
  location: string;
  token: string;
  concurrency: number;
  runnerId: string;
}

function parseOptions(argv: string[], env: NodeJS.ProcessEnv): Options {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      service: { type: 'string' },
      location: { type: 'string' },
      token: { type: 'string' },
      concurrency: { type: 'string', default: '4' },
      'runner-id': { type: 'string' },
    },
  });
  const service = values.service;
  if (!service || !/^https?:\/\/[^/]+/.test(service))
    throw new Error('--service needs the service address, e.g. --service http://127.0.0.1:8787');
  const location = values.location;
  if (!location || !/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(location))
    throw new Error('--location needs the id of a remote location of the service');
  const token = values.token ?? env[runnerTokenVariable(location)] ?? env['CHECKWALL_RUNNER_TOKEN'];
  if (!token)
    throw new Error(
      `no runner token: set CHECKWALL_RUNNER_TOKEN (or ${runnerTokenVariable(location)}), or pass --token`,
    );
  const concurrency = Number(values.concurrency);
  if (!/^\d+$/.test(values.concurrency) || concurrency < 1 || concurrency > 100)
    throw new Error(`--concurrency must be 1-100, got "${values.concurrency}"`);
  const runnerId =
    values['runner-id'] ?? `${hostname()}-${process.pid}`.replace(/[^A-Za-z0-9._-]/g, '-').slice(0, 80);
  if (!/^[A-Za-z0-9._-]{1,100}$/.test(runnerId))
    throw new Error('--runner-id must be 1-100 letters, digits, . _ or -');
  return { service, location, token, concurrency, runnerId };
}

/** Runs a job here: in-process for the network checks, in a local Chromium for browser ones. */
function createExecutor(concurrency: number, location: string) {
  let browser: ReturnType<typeof createBrowserRunner> | undefined;
  let pool: ReturnType<typeof createBrowserPool> | undefined;
  const execute = (claimed: RunnerJob, signal: AbortSignal): Promise<RunResult> => {
    const parsed = CheckConfigSchema.safeParse(claimed.job.check);
    // A check this runner cannot read (a newer service?) is still answered, with why.
    const job = {
      ...claimed.job,
      check: parsed.data ?? (claimed.job.check as unknown as CheckConfig),
    } as RunJob;
    if (!parsed.success)
      return Promise.resolve(
        runnerError(
          job,
          `this runner cannot read the check (a newer service?): ${parsed.error.issues[0]?.message ?? ''}`,
        ),
      );
    if (job.check.type !== 'browser' && job.check.type !== 'multistep') return executeJob(job, signal);
    const missing = browserMissing();
    if (missing)
      return Promise.resolve(
        runnerError(job, `Chromium is missing on the runner at ${location}: ${missing}`),
      );
    pool ??= createBrowserPool({ executable: chromiumPath(), maxConcurrent: Math.min(concurrency, 4) });
    browser ??= createBrowserRunner(pool);
    const ctx = {
      maxStoredBodyBytes: job.maxStoredBodyBytes,
      signal,
      now: Date.now,
    };
    return browser({ id: job.accountId }, job.check, job.location, ctx, job.triggeredBy);
  };
  return { execute, close: () => pool?.close() };
}

export async function runRunner(argv: string[]): Promise<number> {
  let options: Options;
  try {
    options = parseOptions(argv, process.env);
  } catch (error) {
    process.stderr.write(`checkwall runner: ${(error as Error).message}\n\n${RUNNER_USAGE}\n`);
    return 2;
  }
  const say = (line: string) => process.stdout.write(`checkwall runner: ${line}\n`);
  const executor = createExecutor(options.concurrency, options.location);
  const loop = createRunnerLoop({ ...options, execute: executor.execute, log: say });
  const stopped = new Promise<'signal'>((resolve) => {
    process.once('SIGINT', () => resolve('signal'));
    process.once('SIGTERM', () => resolve('signal'));
  });
  let status = 0;
  const ended = loop.run().then(
    () => 'ended' as const,
    (error: unknown) => {
      if (!(error instanceof RunnerRefused)) throw error;
      process.stderr.write(`checkwall runner: ${error.message}\n`);
      status = 2;
      return 'refused' as const;
    },
  );
  const why = await Promise.race([stopped, ended]);
  if (why === 'signal') say('stopping: runs in flight get a few seconds');
  const { abandoned, unposted } = await loop.stop(GRACE_MS);
  if (why === 'signal' && (abandoned > 0 || unposted > 0))
    say(
      `stopped: ${abandoned} runs abandoned, ${unposted} results not posted (the service gives them to another runner)`,
    );
  await ended;
  await executor.close();
  return status;
}
