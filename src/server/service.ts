// The embedded monitoring service: storage, status engine, scheduler and the
// HTTP app, wired together and listening.
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { createAccounts, type Accounts } from './accounts.js';
import { createAlerting, type Alerting } from './alerting/index.js';
import { createAlertPlanner } from './alerting/planner.js';
import { newSigningSecret } from './alerting/signing-secret.js';
import type { ServiceConfig } from './config-schema.js';
import type { RunResult, Scheduler } from './contracts.js';
import { createRunnerHub, type RunnerHub } from './runner-hub.js';
import { buildApp } from './http/app.js';
import { createRateLimiter } from './http/auth.js';
import type { RunStats } from './run-accounting.js';
import { createRunner } from './runners/index.js';
import type { WorkerPoolOptions } from './runners/worker-pool.js';
import { createScheduler } from './scheduler.js';
import { createStatusEngine, type StatusEngine } from './status-engine.js';
import { openSqliteStorage } from './storage/sqlite.js';
import type { ClaimedRun, Storage } from './storage/types.js';

export interface ServiceOptions {
  config: ServiceConfig;
  dbPath: string;
  host?: string;
  port?: number;
  /** False in tests that seed results themselves. */
  startScheduler?: boolean;
  now?: () => number;
  rateLimit?: { perSecond: number; burst: number };
  /** The run workers' pool: its size and entry (tests running from source point at a built entry). */
  workers?: WorkerPoolOptions;
  /** How long a remote runner holds the runs it claims (default 150 s; tests shorten it). */
  runnerLeaseMs?: number;
  /** How often this instance takes over local runs whose lease ran out (default 10 s). */
  sweepEveryMs?: number;
  /** Where the service's own lines go (a refused runner token); default stderr. */
  log?: (line: string) => void;
}

/** What a reload changed, by check (account id and check id). */
export interface ReloadSummary {
  added: number;
  changed: number;
  removed: number;
}

export interface Service {
  url: string;
  app: FastifyInstance;
  storage: Storage;
  engine: StatusEngine;
  accounts: Accounts;
  alerting: Alerting;
  /** Stores a result as if a runner had produced it (status, incidents and all). */
  record(accountId: string, result: RunResult): void;
  /**
   * Runs on a new, already validated config: checks added, changed, disabled
   * or removed take effect at once; stored results stay; runs in flight finish.
   */
  reload(config: ServiceConfig): ReloadSummary;
  /** Runs due, skipped, stored, waiting and running (every due run is stored or counted). */
  runStats(): RunStats;
  /** Runs executed per worker thread (thread id): runs do not share the API's thread. */
  runsByThread(): Map<number, number>;
  close(): Promise<void>;
}

const PRUNE_EVERY_MS = 3_600_000;
// Runs stay in the queue this long after they were due: long past any lease or late report.
const RUNS_KEPT_MS = 3_600_000;
// Often, so each prune deletes a minute of runs (~10,000 rows at 10,000 checks), not a burst.
const RUNS_PRUNE_EVERY_MS = 60_000;
const RUNNERS_REFRESH_MS = 5_000;
// A claimed remote run is given to another runner after this: past a check's longest timeout (120 s).
const RUNNER_LEASE_MS = 150_000;
// Keeps statuses computed ahead of requests: at most 20 ms of work every 250 ms.
const WARM_EVERY_MS = 250;
const WARM_BUDGET_MS = 20;

export async function createService(opts: ServiceOptions): Promise<Service> {
  const now = opts.now ?? Date.now;
  const storage = openSqliteStorage(opts.dbPath);
  let config = opts.config;
  const accounts = createAccounts(config, new Date(now()));
  seedChannels(config, storage, now());
  // The engine asks the scheduler for next runs; the scheduler records into the engine.
  const late: { scheduler?: Scheduler; hub?: RunnerHub } = {};
  const planner = createAlertPlanner({ storage, now, publicUrl: opts.config.publicUrl });
  const lateAlerting: { alerting?: Alerting } = {};
  const engine = createStatusEngine({
    storage,
    scheduler: {
      nextRun: (accountId, checkId) => late.scheduler?.nextRun(accountId, checkId) ?? null,
      skippedRecently: (accountId, checkId) => late.scheduler?.skippedRecently(accountId, checkId) ?? 0,
    },
    now,
    alerts: planner,
    onNotifications: () => lateAlerting.alerting?.kick(),
    runners: { lastSeen: (accountId, locationId) => late.hub?.lastSeen(accountId, locationId) ?? null },
  });
  const alerting = (lateAlerting.alerting = createAlerting({
    config: opts.config,
    storage,
    accounts,
    engine,
    planner,
    now,
  }));
  /** The status before a result (what a change is measured from), and what to do once it is stored. */
  const judge = (accountId: string, checkId: string) => {
    const account = accounts.byId(accountId);
    const check = account && accounts.check(account, checkId);
    const before = account && check ? engine.statusOf(account, check).status : 'unknown';
    return (result: RunResult) => account && check && engine.onResult(account, check, result, before);
  };
  const record = (accountId: string, run: RunResult) => {
    // The picture is stored apart; the result's JSON keeps only `hasScreenshot`.
    const { screenshot, ...result } = run;
    const after = judge(accountId, result.checkId);
    storage.insertResult(accountId, result);
    if (screenshot) storage.insertScreenshot(accountId, result, screenshot);
    after(result);
  };
  /** A queued run's result: stored once, by the run's holder only, then judged. */
  const complete = async (held: Pick<ClaimedRun, 'id' | 'token' | 'accountId'>, run: RunResult) => {
    const { screenshot, ...result } = run;
    const after = judge(held.accountId, result.checkId);
    const stored = await storage.completeRun(held.id, held.token, held.accountId, result, screenshot);
    if (stored) after(result);
    return stored;
  };
  const log = opts.log ?? ((line: string) => void process.stderr.write(`checkwall serve: ${line}\n`));
  const stopping = new AbortController();
  const hub = createRunnerHub({ config, queue: storage, now, onReturn: () => engine.clear() });
  late.hub = hub;
  await hub.refresh();
  const runner = createRunner({
    maxConcurrentBrowserRuns: config.maxConcurrentBrowserRuns,
    ...(opts.workers ? { workers: opts.workers } : {}),
  });
  const scheduler = createScheduler({
    config,
    run: runner.run,
    queue: storage,
    complete,
    onRemoteOffered: (run) => hub.wake(run.accountId, run.locationId),
    ...(opts.sweepEveryMs ? { sweepEveryMs: opts.sweepEveryMs } : {}),
    ctx: {
      lastPingAt: (a, c) => storage.lastPing(a, c),
      // Read at each run (the scheduler spreads this object), so a reload applies to the next one.
      get maxStoredBodyBytes() {
        return config.maxStoredBodyBytes;
      },
      now,
    },
    lastRunAt: (a, c, l) => storage.recentRuns(a, c, l, 1)[0]?.startedAt ?? null,
    onSkipping: () => engine.touch(),
  });
  late.scheduler = scheduler;
  const limit = opts.rateLimit ?? { perSecond: 50, burst: 500 };
  const app = buildApp(
    {
      accounts,
      storage,
      engine,
      alerting,
      now,
      limitRate: createRateLimiter(limit.perSecond, limit.burst, now),
    },
    {
      hub,
      queue: storage,
      complete,
      maxStoredBodyBytes: () => config.maxStoredBodyBytes,
      leaseMs: opts.runnerLeaseMs ?? RUNNER_LEASE_MS,
      now,
      closing: stopping.signal,
      log,
    },
  );
  const host0 = opts.host ?? '127.0.0.1';
  try {
    await app.listen({ host: host0, port: opts.port ?? 0 });
  } catch (error) {
    await app.close();
    storage.close();
    throw new Error(`cannot listen on ${host0}:${opts.port ?? 0}: ${listenProblem(error)}`);
  }
  const { address, port } = app.server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  if (opts.startScheduler !== false) {
    runner.workers.warm();
    scheduler.start();
  }
  alerting.start();
  const prune = () => storage.prune(now() - config.retentionDays * 86_400_000);
  prune();
  const pruner = setInterval(prune, PRUNE_EVERY_MS).unref();
  const pruneRuns = () =>
    storage.pruneRuns(now() - RUNS_KEPT_MS).catch((e: unknown) => log(`cannot prune runs: ${String(e)}`));
  const runPruner = setInterval(pruneRuns, RUNS_PRUNE_EVERY_MS).unref();
  const seenRefresher = setInterval(
    () => void hub.refresh().catch((e: unknown) => log(`cannot read runner contacts: ${String(e)}`)),
    RUNNERS_REFRESH_MS,
  ).unref();
  let pairs = checkPairs(config);
  const warmer = setInterval(() => engine.warm(pairs, WARM_BUDGET_MS), WARM_EVERY_MS).unref();
  const reload = (next: ServiceConfig): ReloadSummary => {
    const summary = diffChecks(config, next);
    const known = new Set(config.accounts.map((a) => a.id));
    config = next;
    accounts.replace(next);
    seedChannels({ ...next, accounts: next.accounts.filter((a) => !known.has(a.id)) }, storage, now());
    scheduler.reload(next);
    hub.replace(next);
    pairs = checkPairs(next);
    engine.clear(); // statuses embed the check's name, tags, thresholds and locations
    return summary;
  };
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${port}`,
    app,
    storage,
    engine,
    accounts,
    alerting,
    record,
    reload,
    runStats: () => scheduler.stats(),
    runsByThread: () => runner.workers.runsByThread(),
    close: () =>
      (closing ??= (async () => {
        clearInterval(pruner);
        clearInterval(runPruner);
        clearInterval(seenRefresher);
        stopping.abort();
        clearInterval(warmer);
        await scheduler.stop();
        // After the scheduler: every run has ended, so no page is open when the browser goes.
        await runner.close();
        await app.close();
        await alerting.stop();
        storage.close();
      })()),
  };
}

const checkPairs = (config: ServiceConfig) =>
  config.accounts.flatMap((account) => account.checks.map((check) => ({ account, check })));

function diffChecks(before: ServiceConfig, after: ServiceConfig): ReloadSummary {
  const flat = (config: ServiceConfig) =>
    new Map(
      checkPairs(config).map(({ account, check }) => [`${account.id}/${check.id}`, JSON.stringify(check)]),
    );
  const old = flat(before);
  const next = flat(after);
  const summary = { added: 0, changed: 0, removed: 0 };
  for (const [key, text] of next)
    if (!old.has(key)) summary.added++;
    else if (old.get(key) !== text) summary.changed++;
  for (const key of old.keys()) if (!next.has(key)) summary.removed++;
  return summary;
}

/** Channels declared in the config are created once, the first time an account starts empty. */
function seedChannels(config: ServiceConfig, storage: Storage, now: number) {
  for (const account of config.accounts) {
    if (account.alertChannels.length === 0 || storage.countChannels(account.id) > 0) continue;
    for (const channel of account.alertChannels) {
      const signingSecret =
        channel.type === 'WEBHOOK' ? (channel.signingSecret ?? newSigningSecret()) : undefined;
      storage.createChannel(account.id, { ...channel, signingSecret }, account.maxAlertChannels, now);
    }
  }
}

function listenProblem(error: unknown): string {
  const code = (error as { code?: string }).code;
  if (code === 'EADDRINUSE') return 'the address is already in use';
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') return 'no such address on this machine';
  if (code === 'EACCES') return 'permission denied (ports below 1024 need privileges)';
  return (error as Error).message;
}
