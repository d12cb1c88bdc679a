// The embedded monitoring service: storage, status engine, scheduler and the
// HTTP app, wired together and listening.
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { CheckResult } from '../api/schemas.js';
import { createAccounts, type Accounts } from './config/accounts.js';
import { createAlerting, type Alerting } from './alerting/index.js';
import { createAlertPlanner } from './alerting/planner.js';
import { newSigningSecret } from './alerting/signing-secret.js';
import { diffConfig, type ReloadSummary } from './config/diff.js';
import type { ServiceConfig } from './config/schema.js';
import type { RunResult } from './runners/types.js';
import type { Scheduler } from './schedule/types.js';
import { createRunnerHub, type RunnerHub } from './schedule/runner-hub.js';
import { buildApp } from './http/app.js';
import { createRateLimiter } from './http/auth.js';
import type { RunStats } from './schedule/run-accounting.js';
import { createRunner, notRunnableReason } from './runners/index.js';
import type { WorkerPoolOptions } from './runners/worker-pool.js';
import { createScheduler } from './schedule/scheduler.js';
import { createStatusEngine, type StatusEngine } from './status/engine.js';
import { DAY_MS, HOURLY_KEPT_MS } from './storage/history.js';
import { isPgStorage, openStorage } from './storage/open.js';
import type { ChangeEvent } from './storage/pg/changes.js';
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
  /** A SQLite file's writer thread entry (sqlite-write-thread.ts; tests running from source point at a built one). */
  sqliteWriter?: URL;
  /** How long a remote runner holds the runs it claims (default 150 s; tests shorten it). */
  runnerLeaseMs?: number;
  /** How often this instance takes over local runs whose lease ran out (default 10 s). */
  sweepEveryMs?: number;
  /** Where the service's own lines go (a refused runner token); default stderr. */
  log?: (line: string) => void;
}

export type { ReloadSummary } from './config/diff.js';

export interface Service {
  url: string;
  app: FastifyInstance;
  storage: Storage;
  engine: StatusEngine;
  accounts: Accounts;
  alerting: Alerting;
  /** Stores a result as if a runner had produced it (status, incidents and all). */
  record(accountId: string, result: RunResult): Promise<void>;
  /**
   * Runs on a new, already validated config: checks added, changed, disabled
   * or removed take effect at once; stored results stay; runs in flight finish.
   */
  reload(config: ServiceConfig): Promise<ReloadSummary>;
  /** Runs due, skipped, stored, waiting and running (every due run is stored or counted). */
  runStats(): RunStats;
  /** Runs executed per worker thread (thread id): runs do not share the API's thread. */
  runsByThread(): Map<number, number>;
  /**
   * Several instances on one PostgreSQL database: tells the others this one
   * reloaded its config (`version`, the file's digest). Nothing on SQLite.
   */
  announceConfig(version: string): Promise<void>;
  /** Called when another instance announced a reload (PostgreSQL only). */
  onPeerConfig(handler: (version: string) => void): void;
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
// Each status is looked at once in this long, a slice of them each turn: looking at all
// 10,000 every turn (to find the few due) was a quarter of the main thread's work in the
// honesty bench. A status past its `until` (a silent check turning unknown) is derived
// again within this long of it.
const WARM_CYCLE_MS = 8_000;

export async function createService(opts: ServiceOptions): Promise<Service> {
  const now = opts.now ?? Date.now;
  const storage = await openStorage(opts.dbPath, opts.sqliteWriter ? { writer: opts.sqliteWriter } : {});
  let config = opts.config;
  const accounts = createAccounts(config, new Date(now()));
  try {
    await seedChannels(config, storage, now());
  } catch (error) {
    await storage.close();
    throw error;
  }
  // The engine asks the scheduler for next runs; the scheduler records into the engine.
  const late: { scheduler?: Scheduler; hub?: RunnerHub } = {};
  const planner = createAlertPlanner({ storage, now, publicUrl: opts.config.publicUrl });
  const lateAlerting: { alerting?: Alerting } = {};
  const engine = createStatusEngine({
    storage,
    rawRetentionMs: () => config.retentionDays * DAY_MS,
    scheduler: {
      nextRun: (accountId, checkId) => late.scheduler?.nextRun(accountId, checkId) ?? null,
      skippedReason: (accountId, checkId) => late.scheduler?.skippedReason(accountId, checkId),
    },
    now,
    alerts: planner,
    onNotifications: () => lateAlerting.alerting?.kick(),
    runners: { lastSeen: (accountId, locationId) => late.hub?.lastSeen(accountId, locationId) ?? null },
    notRunnableReason,
    // Two batches of 100 checks' reads in flight (pg-per-key.ts), the next ones gathering.
    readsAtOnce: isPgStorage(storage) ? 300 : undefined,
  });
  const alerting = (lateAlerting.alerting = createAlerting({
    config: opts.config,
    storage,
    accounts,
    engine,
    planner,
    now,
  }));
  /** Stores a result with `write` and judges it, in order with the check's other results. */
  const store = (accountId: string, result: CheckResult, write: () => Promise<boolean>) => {
    const account = accounts.byId(accountId);
    const check = account && accounts.check(account, result.checkId);
    return account && check ? engine.record(account, check, result, write) : write();
  };
  const record = async (accountId: string, run: RunResult) => {
    // The picture is stored apart; the result's JSON keeps only `hasScreenshot`.
    const { screenshot, ...result } = run;
    await store(accountId, result, async () => {
      await storage.insertResult(accountId, result);
      if (screenshot) await storage.insertScreenshot(accountId, result, screenshot);
      return true;
    });
  };
  /** A queued run's result: stored once, by the run's holder only, then judged. */
  const complete = (held: Pick<ClaimedRun, 'id' | 'token' | 'accountId'>, run: RunResult) => {
    const { screenshot, ...result } = run;
    return store(held.accountId, result, () =>
      storage.completeRun(held.id, held.token, held.accountId, result, screenshot),
    );
  };
  const log = opts.log ?? ((line: string) => void process.stderr.write(`checkwall serve: ${line}\n`));
  const leaving = new AbortController();
  const hub = createRunnerHub({ config, queue: storage, now, onReturn: () => engine.expire() });
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
    onRemoteDue: (run) => hub.wake(run.accountId, run.locationId),
    ...(opts.sweepEveryMs ? { sweepEveryMs: opts.sweepEveryMs } : {}),
    ctx: {
      lastPingAt: (a, c) => storage.lastPing(a, c),
      // Read at each run (the scheduler spreads this object), so a reload applies to the next one.
      get maxStoredBodyBytes() {
        return config.maxStoredBodyBytes;
      },
      now,
    },
    lastRunAt: async (a, c, l) => (await storage.recentRuns(a, c, l, 1))[0]?.startedAt ?? null,
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
      check: (account, checkId) => accounts.check(account, checkId),
      leaseMs: opts.runnerLeaseMs ?? RUNNER_LEASE_MS,
      now,
      closing: leaving.signal,
      log,
    },
  );
  const host0 = opts.host ?? '127.0.0.1';
  try {
    await app.listen({ host: host0, port: opts.port ?? 0 });
  } catch (error) {
    await app.close();
    await storage.close();
    throw new Error(`cannot listen on ${host0}:${opts.port ?? 0}: ${listenProblem(error)}`);
  }
  const { address, port } = app.server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  if (opts.startScheduler !== false) {
    runner.workers.warm();
    scheduler.start();
  }
  alerting.start();
  // Another instance on the same PostgreSQL database stored a result (moving this one's
  // status of that check as its own results do) or moved an alert (the status is read
  // anew). After a lost connection, all are read anew.
  const peerConfig = new Set<(version: string) => void>();
  const onChange = (e: ChangeEvent) => {
    if (e.kind === 'resync') return engine.clear();
    if (e.fromSelf) return;
    if (e.kind === 'config') return peerConfig.forEach((handler) => handler(e.version));
    const account = accounts.byId(e.accountId);
    const check = account && accounts.check(account, e.checkId);
    if (account && check)
      (e.kind === 'result'
        ? engine.peerResult(account, check, e.result)
        : engine.invalidate(account, check)
      ).catch((error: unknown) => {
        console.error(`checkwall: cannot read the new status of ${e.checkId}`, error);
      });
  };
  const unlisten = isPgStorage(storage) ? await storage.changes.listen(onChange) : undefined;
  // Timers' work, one of each kind at a time, finished before storage closes.
  const jobs = new Map<string, Promise<void>>();
  let stopping = false;
  const background = (what: string, job: () => Promise<unknown>) => {
    if (jobs.has(what) || stopping) return;
    const done = job()
      .then(() => undefined)
      .catch((error: unknown) => console.error(`checkwall: ${what} failed`, error))
      .finally(() => jobs.delete(what));
    jobs.set(what, done);
  };
  const idle = () => Promise.allSettled([...jobs.values()]);
  const prune = () => {
    const at = now();
    const history = at - config.historyDays * DAY_MS;
    return storage.prune(at - config.retentionDays * DAY_MS, {
      before: history,
      hourlyBefore: Math.max(history, at - HOURLY_KEPT_MS),
    });
  };
  await prune();
  const pruner = setInterval(() => background('pruning', prune), PRUNE_EVERY_MS).unref();
  const pruneRuns = () => storage.pruneRuns(now() - RUNS_KEPT_MS);
  const runPruner = setInterval(() => background('pruning runs', pruneRuns), RUNS_PRUNE_EVERY_MS).unref();
  const seenRefresher = setInterval(
    () => background('reading runner contacts', () => hub.refresh()),
    RUNNERS_REFRESH_MS,
  ).unref();
  let pairs = checkPairs(config);
  const warmer = setInterval(
    () =>
      background('warming statuses', () => engine.warm(pairs, WARM_BUDGET_MS, WARM_EVERY_MS / WARM_CYCLE_MS)),
    WARM_EVERY_MS,
  ).unref();
  const reload = async (next: ServiceConfig): Promise<ReloadSummary> => {
    const { summary, moved } = diffConfig(config, next);
    const known = new Set(config.accounts.map((a) => a.id));
    config = next;
    accounts.replace(next);
    await scheduler.reload(next); // and the runs waiting for the slots it removed are withdrawn
    hub.replace(next);
    pairs = checkPairs(next);
    engine.forget(moved); // statuses embed their check's config: those it moved are read again
    await seedChannels({ ...next, accounts: next.accounts.filter((a) => !known.has(a.id)) }, storage, now());
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
    announceConfig: (version) =>
      isPgStorage(storage) ? storage.changes.publishConfig(version) : Promise.resolve(),
    onPeerConfig: (handler) => void peerConfig.add(handler),
    close: () =>
      (closing ??= (async () => {
        stopping = true;
        unlisten?.();
        clearInterval(pruner);
        clearInterval(runPruner);
        clearInterval(seenRefresher);
        leaving.abort();
        clearInterval(warmer);
        await scheduler.stop();
        // After the scheduler: every run has ended, so no page is open when the browser goes.
        await runner.close();
        await app.close();
        await alerting.stop();
        await idle();
        await storage.close();
      })()),
  };
}

const checkPairs = (config: ServiceConfig) =>
  config.accounts.flatMap((account) => account.checks.map((check) => ({ account, check })));

/** Channels declared in the config are created once, the first time an account starts empty. */
async function seedChannels(config: ServiceConfig, storage: Storage, now: number) {
  for (const account of config.accounts) {
    if (account.alertChannels.length === 0 || (await storage.countChannels(account.id)) > 0) continue;
    for (const channel of account.alertChannels) {
      const signingSecret =
        channel.type === 'WEBHOOK' ? (channel.signingSecret ?? newSigningSecret()) : undefined;
      await storage.createChannel(account.id, { ...channel, signingSecret }, account.maxAlertChannels, now);
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
