// The embedded monitoring service: storage, status engine, scheduler and the
// HTTP app, wired together and listening.
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { CheckResult } from '../api/schemas.js';
import { clockWithNow, systemClock, type Clock } from '../domain/clock.js';
import { createAccounts, type Accounts } from './config/accounts.js';
import { createAlerting, type Alerting } from './alerting/index.js';
import { createAlertPlanner } from './alerting/planner.js';
import { newSigningSecret } from './alerting/signing-secret.js';
import { diffConfig, type ReloadSummary } from './config/diff.js';
import type { ServiceConfig } from './config/schema.js';
import type { RunResult } from './runners/types.js';
import type { Scheduler } from './schedule/types.js';
import { createRunnerHub, type RunnerHub } from './schedule/runner-hub.js';
import { createClaims } from './schedule/claims.js';
import { buildApp } from './http/app.js';
import { createRateLimiter } from './http/auth.js';
import type { RunStats } from './schedule/run-accounting.js';
import { createRunner, notRunnableReason } from './runners/index.js';
import type { WorkerPoolOptions } from './runners/worker-pool.js';
import { createScheduler } from './schedule/scheduler.js';
import { createPauses, type PauseChange, type Pauses } from './schedule/pauses.js';
import { covers, createMaintenance, type Maintenance } from './maintenance/windows.js';
import type { Occurrence } from '../domain/maintenance.js';
import { createStatusEngine, type StatusEngine } from './status/engine.js';
import { DAY_MS, HOURLY_KEPT_MS } from './storage/history.js';
import { createHealth, createStorageWatch, type Health, type StorageWatch } from './status/health.js';
import { isPgStorage, openStorage } from './storage/open.js';
import { logFailure, observeStorage } from './storage/observed.js';
import type { ChangeEvent } from './storage/pg/changes.js';
import type { ClaimedRun, Storage, StoredWindow } from './storage/types.js';
import { createInstanceMetrics, readInstanceSources, type InstanceMetrics } from './metrics/instance.js';
import { createRunTally, type RunTally } from './metrics/run-tally.js';
import { createScrape, type Scrape } from './metrics/scrape.js';
import { listenMetrics, type MetricsListener } from './http/metrics-routes.js';

export interface ServiceOptions {
  config: ServiceConfig;
  dbPath: string;
  host?: string;
  port?: number;
  /** False in tests that seed results themselves. */
  startScheduler?: boolean;
  /** The service's clock: every part reads the time and sets its timers on it (default: the system's). */
  clock?: Clock;
  /** Only the time read, the timers the system's (tests that move the time alone). */
  now?: () => number;
  rateLimit?: { perSecond: number; burst: number };
  /** The run workers' pool: its size and entry (tests running from source point at a built entry). */
  workers?: WorkerPoolOptions;
  /** A SQLite file's writer thread entry (sqlite-write-thread.ts; tests running from source point at a built one). */
  sqliteWriter?: URL;
  /** The metrics thread's entry (metrics-thread.ts; tests running from source point at a built one). */
  metricsThread?: URL;
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
  /** The sidecar's GET /metrics address when the config names metrics.port. */
  metricsUrl?: string | undefined;
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
// A remote location's runner in touch this lately is connected: a run asked for there waits for it.
const RUNNER_CONNECTED_MS = 60_000;
// A run asked for is read back by id for this long after it finished.
const ASKED_RUNS_KEPT_MS = 86_400_000;
// A claimed remote run is given to another runner after this: past a check's longest timeout (120 s).
const RUNNER_LEASE_MS = 150_000;
// Keeps statuses computed ahead of requests: at most 20 ms of work every 250 ms.
const WARM_EVERY_MS = 250;
const WARM_BUDGET_MS = 20;
// Each status is looked at once in this long, a slice of them each turn: looking at all of
// them every turn, to find the few due, costs the main thread dearly (BENCHMARKS.md). A
// status past its `until` (a silent check turning unknown) is derived again within this long of it.
const WARM_CYCLE_MS = 8_000;

/**
 * The loop between runs and statuses, one way at a time: the run side (scheduler, runner
 * hub) is built first and knows nothing of statuses; the status side reads it (next runs,
 * skips, runner contacts) and alerting reads the status side. What goes back is given
 * explicitly once both exist: the sink of scheduler.start (results, skips), the run
 * side's `runnersBack` and the engine's `onNotifications` (alerting's kick).
 */
export async function createService(opts: ServiceOptions): Promise<Service> {
  const parts = await openParts(opts);
  const run = await createRunSide(parts);
  const status = createStatusSide(parts, run);
  parts.pauseMoved.to = ({ resumed }) => {
    // A paused check is scheduled as a disabled one; a resumed one runs within seconds.
    void run.scheduler.reload(scheduledConfig(parts, parts.live.config), { soon: resumed });
    status.engine.rederiveAll();
    status.engine.scheduleMoved();
  };
  parts.maintenanceMoved.to = (windows) => {
    // A window in pause mode starting or ending moves the schedule as a person's pause does.
    void run.scheduler.reload(scheduledConfig(parts, parts.live.config));
    status.engine.rederiveAll();
    status.engine.scheduleMoved();
    // The checks the windows cover are derived now, not at the warmer's turn: a silence
    // made from the console shows on the board at its next poll.
    const derived: Array<Promise<unknown>> = [];
    for (const window of windows) {
      const account = parts.accounts.byId(window.accountId);
      for (const check of account?.checks ?? [])
        if (account && covers(window, account, check))
          derived.push(
            // A window excluding runs from the availability needs the check's runs one by one: read anew.
            (window.excludeFromAvailability
              ? status.engine.rereadCheck(account, check)
              : status.engine.statusOf(account, check)
            ).catch((error: unknown) => {
              logFailure(`checkwall: cannot derive the status of ${check.id}`, error);
            }),
          );
    }
    return Promise.all(derived).then(() => undefined);
  };
  parts.maintenanceEnded.to = async (window) => {
    const account = parts.accounts.byId(window.accountId);
    if (!account) return;
    const checks = account.checks.filter((c) => covers(window, account, c));
    await status.alerting.maintenanceEnded(account, checks, window);
  };
  parts.pauses.start();
  parts.maintenance.start();
  const leaving = new AbortController();
  const { app, url, sidecar, scrape } = await listen(parts, run, status, leaving.signal);
  if (opts.startScheduler !== false) {
    run.runner.workers.warm();
    run.scheduler.start({ complete: status.complete, onSkipping: () => status.engine.scheduleMoved() });
  }
  status.alerting.start();
  const peers = await listenPeers(parts, status.engine);
  const timers = await startTimers(parts, run.hub, status.engine);
  let closing: Promise<void> | undefined;
  return {
    url,
    metricsUrl: sidecar?.url,
    app,
    storage: parts.storage,
    engine: status.engine,
    accounts: parts.accounts,
    alerting: status.alerting,
    record: status.record,
    reload: reloadFn(parts, run, status.engine, timers),
    runStats: () => run.scheduler.stats(),
    runsByThread: () => run.runner.workers.runsByThread(),
    announceConfig: peers.announce,
    onPeerConfig: peers.onConfig,
    close: () => (closing ??= closeAll({ parts, run, status, app, sidecar, scrape, peers, timers, leaving })),
  };
}

/** What every part of the service shares: its options, clock, storage and config. */
interface Parts {
  opts: ServiceOptions;
  clock: Clock;
  storage: Storage;
  accounts: Accounts;
  /** The config in force: a reload replaces it, and whoever reads it here sees the new one. */
  live: { config: ServiceConfig };
  /** The database's faults, as the storage met them (the service's health reads them). */
  faults: StorageWatch;
  /** The service's own lines (opts.log, else stderr). */
  log: (line: string) => void;
  /** People's pauses of checks (issue 32), read at start; what they move is told to `pauseMoved.to`. */
  pauses: Pauses;
  pauseMoved: { to: (change: PauseChange) => void };
  /** Maintenance windows (issue 33); their starts and ends are told to `maintenanceMoved.to`. */
  maintenance: Maintenance;
  maintenanceMoved: { to: (windows: readonly StoredWindow[]) => Promise<void> };
  maintenanceEnded: { to: (window: StoredWindow, occurrence: Occurrence) => Promise<void> };
  /** This instance's own families of /metrics: the parts observe into them. */
  metrics: InstanceMetrics;
}

/** The config as the scheduler runs it: checks paused by a person or by a window in pause mode disabled. */
const scheduledConfig = (parts: Pick<Parts, 'pauses' | 'maintenance'>, config: ServiceConfig) =>
  parts.pauses.scheduled(parts.maintenance.scheduled(config));

/** The one clock of the service: opts.clock, else the system's timers with opts.now, else the system's. */
const clockOf = (opts: ServiceOptions): Clock =>
  opts.clock ?? (opts.now ? clockWithNow(opts.now) : systemClock);

/** Opens storage and seeds the config's channels (an account starting empty). */
async function openParts(opts: ServiceOptions): Promise<Parts> {
  const clock = clockOf(opts);
  const log = opts.log ?? ((line: string) => void process.stderr.write(`checkwall serve: ${line}\n`));
  const opened = await openStorage(opts.dbPath, {
    ...(opts.sqliteWriter ? { writer: opts.sqliteWriter } : {}),
    ...(opts.log ? { warn: opts.log } : {}),
  });
  const faults = createStorageWatch(clock, log);
  const metrics = createInstanceMetrics();
  // Every part reads and writes through this one: the database's faults reach the health,
  // each call's time the metrics.
  const storage = observeStorage(opened, { ...faults.listener, timed: metrics.storageCall });
  const accounts = createAccounts(opts.config, new Date(clock.now()));
  const pauseMoved = { to: (_change: PauseChange) => {} };
  const pauses = createPauses({ storage, clock, onChange: (change) => pauseMoved.to(change) });
  const maintenanceMoved = { to: (_windows: readonly StoredWindow[]) => Promise.resolve() };
  const maintenanceEnded = { to: (_w: StoredWindow, _o: Occurrence) => Promise.resolve() };
  const maintenance = createMaintenance({
    storage,
    clock,
    config: opts.config,
    log,
    onChange: (windows) => maintenanceMoved.to(windows),
    onEnded: (window, occurrence) => maintenanceEnded.to(window, occurrence),
  });
  try {
    await seedChannels(opts.config, storage, clock.now());
    await pauses.read();
    await maintenance.tick();
  } catch (error) {
    faults.stop();
    await storage.close();
    throw error;
  }
  return {
    opts,
    clock,
    storage,
    accounts,
    live: { config: opts.config },
    faults,
    log,
    pauses,
    pauseMoved,
    maintenance,
    maintenanceMoved,
    maintenanceEnded,
    metrics,
  };
}

/** Where runs come from: the local runner and the scheduler, the remote runners' hub. */
interface RunSide {
  hub: RunnerHub;
  runner: ReturnType<typeof createRunner>;
  scheduler: Scheduler;
  /** A location's runners came back after a silence (the status side listens). */
  runnersBack: Listeners;
}

/**
 * Built before the status side, which reads it (next runs, skips, runner contacts):
 * it reaches the statuses only through what the status side subscribes to it, and
 * through the sink given to scheduler.start.
 */
async function createRunSide(parts: Parts): Promise<RunSide> {
  const { opts, clock, storage, live, metrics } = parts;
  const runnersBack = listeners();
  const config = live.config;
  const hub = createRunnerHub({ config, queue: storage, now: clock.now, clock, onReturn: runnersBack.emit });
  await hub.refresh();
  const runner = createRunner({
    maxConcurrentBrowserRuns: config.maxConcurrentBrowserRuns,
    ...(opts.workers ? { workers: opts.workers } : {}),
  });
  const scheduler = createScheduler({
    config: scheduledConfig(parts, config),
    run: runner.run,
    queue: storage,
    onRemoteDue: (run) => hub.wake(run.accountId, run.locationId),
    ...(opts.sweepEveryMs ? { sweepEveryMs: opts.sweepEveryMs } : {}),
    ctx: {
      lastPingAt: (a, c) => storage.lastPing(a, c),
      // Read at each run (the scheduler spreads this object), so a reload applies to the next one.
      get maxStoredBodyBytes() {
        return live.config.maxStoredBodyBytes;
      },
      now: clock.now,
    },
    lastRunAt: async (a, c, l) => (await storage.recentRuns(a, c, l, 1))[0]?.startedAt ?? null,
    clock,
    observeLag: metrics.scheduleLag,
  });
  return { hub, runner, scheduler, runnersBack };
}

/** Statuses, incidents and alerts, and the two ways a result reaches them. */
interface StatusSide {
  engine: StatusEngine;
  alerting: Alerting;
  /** Stores a result as if a runner had produced it (status, incidents and all). */
  record(accountId: string, result: RunResult): Promise<void>;
  /** A queued run's result: stored once, by the run's holder only, then judged. */
  complete(held: Pick<ClaimedRun, 'id' | 'token' | 'accountId'>, run: RunResult): Promise<boolean>;
  health: Health;
  /** Each check's runs stored here (checkwall_check_runs_total). */
  runs: RunTally;
}

function createStatusSide(
  { opts, clock, storage, accounts, live, faults, pauses, maintenance, metrics }: Parts,
  run: RunSide,
): StatusSide {
  const planner = createAlertPlanner({
    storage,
    now: clock.now,
    publicUrl: opts.config.publicUrl,
    maintenanceOf: (account, check) => maintenance.activeOver(account, check)?.window,
  });
  const engine = createStatusEngine({
    storage,
    rawRetentionMs: () => live.config.retentionDays * DAY_MS,
    scheduler: run.scheduler,
    now: clock.now,
    alerts: planner,
    runners: run.hub,
    notRunnableReason,
    pausedOf: (accountId, checkId) => pauses.of(accountId, checkId),
    excludedOf: (account, check, from, to) => maintenance.excludedOver(account, check, from, to),
    maintenanceOf: (account, check) => {
      const active = maintenance.activeOver(account, check);
      if (!active) return undefined;
      const held = (a: typeof active) => ({
        id: a.window.id,
        name: a.window.name,
        endsAt: a.occurrence.endsAt,
        mode: a.window.mode,
      });
      const pause = maintenance.pauseOver(account, check);
      return { active: held(active), pause: pause && held(pause) };
    },
    // Two batches of 100 checks' reads in flight (pg-per-key.ts), the next ones gathering.
    readsAtOnce: isPgStorage(storage) ? 300 : undefined,
  });
  const alerting = createAlerting({
    config: opts.config,
    storage,
    accounts,
    engine,
    planner,
    clock,
    onOutcome: metrics.notification,
  });
  engine.onNotifications(alerting.kick);
  run.runnersBack.on(() => engine.rederiveAll());
  const runs = createRunTally();
  /** Stores a result with `write` and judges it, in order with the check's other results. */
  const store = (accountId: string, result: CheckResult, write: () => Promise<boolean>) => {
    const account = accounts.byId(accountId);
    const check = account && accounts.check(account, result.checkId);
    const counted = async () => {
      const stored = await write();
      if (stored) runs.stored(accountId, result.checkId, result.status);
      return stored;
    };
    return account && check ? engine.record(account, check, result, counted) : counted();
  };
  const health = createHealth({
    clock,
    storage: faults,
    skippedLastMinute: () => run.scheduler.skippedLastMinute(),
    lastSeen: (accountId, locationId) => run.hub.lastSeen(accountId, locationId),
    config: () => live.config,
  });
  return {
    engine,
    alerting,
    health,
    runs,
    async record(accountId, run) {
      // The picture is stored apart; the result's JSON keeps only `hasScreenshot`.
      const { screenshot, ...result } = run;
      await store(accountId, result, async () => {
        await storage.insertResult(accountId, result);
        if (screenshot) await storage.insertScreenshot(accountId, result, screenshot);
        return true;
      });
    },
    complete(held, run) {
      const { screenshot, ...result } = run;
      return store(held.accountId, result, () =>
        storage.completeRun(held.id, held.token, held.accountId, result, screenshot),
      );
    },
  };
}

/** Builds the HTTP app and listens; on failure, closes what is open and says why. */
async function listen(parts: Parts, run: RunSide, status: StatusSide, closing: AbortSignal) {
  const { opts, clock, storage, accounts, live } = parts;
  const scrape = metricsScrape(parts, run, status);
  const limit = opts.rateLimit ?? { perSecond: 50, burst: 500 };
  const app = await buildApp(
    {
      accounts,
      storage,
      engine: status.engine,
      alerting: status.alerting,
      clock,
      limitRate: createRateLimiter(limit.perSecond, limit.burst, clock.now),
      health: status.health,
      maintenance: parts.maintenance,
      metrics: scrape,
      actions: {
        scheduler: run.scheduler,
        pauses: parts.pauses,
        maintenance: parts.maintenance,
        runnerConnected: (accountId, locationId) => {
          const at = run.hub.lastSeen(accountId, locationId);
          return at !== null && clock.now() - at < RUNNER_CONNECTED_MS;
        },
      },
    },
    {
      hub: run.hub,
      claims: createClaims({
        hub: run.hub,
        queue: storage,
        complete: status.complete,
        skipped: (runs) => run.scheduler.noteSkipped(runs),
        check: (account, checkId) => accounts.check(account, checkId),
        leaseMs: opts.runnerLeaseMs ?? RUNNER_LEASE_MS,
        clock,
        closing,
      }),
      maxStoredBodyBytes: () => live.config.maxStoredBodyBytes,
      log: parts.log,
    },
    () => live.config.http,
  );
  const host0 = opts.host ?? '127.0.0.1';
  try {
    await app.listen({ host: host0, port: opts.port ?? 0 });
  } catch (error) {
    await app.close();
    parts.faults.stop();
    await storage.close();
    throw new Error(`cannot listen on ${host0}:${opts.port ?? 0}: ${listenProblem(error)}`);
  }
  const { address, port } = app.server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  const where = opts.config.metrics;
  let sidecar: MetricsListener | undefined;
  try {
    sidecar = where ? await listenMetrics(scrape, where) : undefined;
  } catch (error) {
    await app.close();
    parts.faults.stop();
    await storage.close();
    throw new Error(`cannot listen for metrics on ${where!.host}:${where!.port}: ${listenProblem(error)}`);
  }
  return { app, url: `http://${host}:${port}`, sidecar, scrape };
}

/** GET /metrics: this instance's families, and the statuses as the list serves them. */
function metricsScrape(
  { opts, clock, storage, accounts, metrics, log }: Parts,
  run: RunSide,
  status: StatusSide,
): Scrape {
  readInstanceSources(metrics.registry, {
    runStats: () => run.scheduler.stats(),
    skippedByReason: () => run.scheduler.skippedByReason(),
    outbox: () => storage.outboxBacklog(),
    now: clock.now,
  });
  return createScrape({
    instance: metrics.registry,
    accounts: () => accounts.all(),
    statuses: async (account) => {
      const list = await status.engine.list(account, '24h');
      return (i) => (list[i] ? status.engine.present(account.id, list[i]) : undefined);
    },
    runs: status.runs,
    runners: run.hub,
    clock,
    log,
    ...(opts.metricsThread ? { thread: opts.metricsThread } : {}),
  });
}

interface Peers {
  announce(version: string): Promise<void>;
  onConfig(handler: (version: string) => void): void;
  unlisten(): void;
}

/**
 * Other instances on the same PostgreSQL database: one stored a result (moving this
 * one's status of that check as its own results do) or moved an alert (the status is
 * read anew). After a lost connection, all are read anew. Nothing on SQLite.
 */
async function listenPeers({ storage, accounts }: Parts, engine: StatusEngine): Promise<Peers> {
  const peerConfig = new Set<(version: string) => void>();
  const onChange = (e: ChangeEvent) => {
    if (e.kind === 'resync') return engine.rereadAll();
    if (e.fromSelf) return;
    if (e.kind === 'config') return peerConfig.forEach((handler) => handler(e.version));
    const account = accounts.byId(e.accountId);
    const check = account && accounts.check(account, e.checkId);
    if (account && check)
      (e.kind === 'result'
        ? engine.peerResult(account, check, e.result)
        : engine.rereadCheck(account, check)
      ).catch((error: unknown) => {
        logFailure(`checkwall: cannot read the new status of ${e.checkId}`, error);
      });
  };
  const unlisten = isPgStorage(storage) ? await storage.changes.listen(onChange) : undefined;
  return {
    announce: (version) =>
      isPgStorage(storage) ? storage.changes.publishConfig(version) : Promise.resolve(),
    onConfig: (handler) => void peerConfig.add(handler),
    unlisten: () => unlisten?.(),
  };
}

interface Timers {
  /** The checks the warmer looks at change with the config. */
  reload(config: ServiceConfig): void;
  /** Stops the timers and waits for their work under way. */
  stop(): Promise<void>;
}

/** Pruning, runner contacts and the status warmer, on the service's clock; their work one of each kind at a time. */
async function startTimers(
  { clock, storage, live }: Parts,
  hub: RunnerHub,
  engine: StatusEngine,
): Promise<Timers> {
  const jobs = new Map<string, Promise<void>>();
  let stopping = false;
  const background = (what: string, job: () => Promise<unknown>) => {
    if (jobs.has(what) || stopping) return;
    const done = job()
      .then(() => undefined)
      .catch((error: unknown) => logFailure(`checkwall: ${what} failed`, error))
      .finally(() => jobs.delete(what));
    jobs.set(what, done);
  };
  const every = (ms: number, what: string, job: () => Promise<unknown>) =>
    clock.setInterval(() => background(what, job), ms).unref();
  const prune = () => {
    const at = clock.now();
    const history = at - live.config.historyDays * DAY_MS;
    return storage.prune(at - live.config.retentionDays * DAY_MS, {
      before: history,
      hourlyBefore: Math.max(history, at - HOURLY_KEPT_MS),
    });
  };
  await prune();
  let pairs = checkPairs(live.config);
  const timers = [
    every(PRUNE_EVERY_MS, 'pruning', prune),
    every(RUNS_PRUNE_EVERY_MS, 'pruning runs', () =>
      storage.pruneRuns(clock.now() - RUNS_KEPT_MS, clock.now() - ASKED_RUNS_KEPT_MS),
    ),
    every(RUNNERS_REFRESH_MS, 'reading runner contacts', () => hub.refresh()),
    every(WARM_EVERY_MS, 'warming statuses', () =>
      engine.warm(pairs, WARM_BUDGET_MS, WARM_EVERY_MS / WARM_CYCLE_MS),
    ),
  ];
  return {
    reload: (config) => void (pairs = checkPairs(config)),
    async stop() {
      stopping = true;
      for (const timer of timers) clock.clearInterval(timer);
      await Promise.allSettled([...jobs.values()]);
    },
  };
}

/** A reload: checks added, changed, disabled or removed take effect at once; runs in flight finish. */
function reloadFn(parts: Parts, run: RunSide, engine: StatusEngine, timers: Timers) {
  const { clock, storage, accounts, live } = parts;
  return async (next: ServiceConfig): Promise<ReloadSummary> => {
    const { summary, moved } = diffConfig(live.config, next);
    const known = new Set(live.config.accounts.map((a) => a.id));
    live.config = next;
    accounts.replace(next);
    // The config's windows are read again (a group or tag now covering a new check included).
    await parts.maintenance.replaceConfig(next);
    // A person's pause outlives the reload; and the runs waiting for the slots it removed are withdrawn.
    await run.scheduler.reload(scheduledConfig(parts, next));
    run.hub.replace(next);
    timers.reload(next);
    engine.rereadChecks(moved); // statuses embed their check's config: those it moved are read again
    await seedChannels(
      { ...next, accounts: next.accounts.filter((a) => !known.has(a.id)) },
      storage,
      clock.now(),
    );
    return summary;
  };
}

/** Stops everything in order: nothing new starts, runs end, then requests, alerts and timers' work; storage last. */
async function closeAll(s: {
  parts: Parts;
  run: RunSide;
  status: StatusSide;
  app: FastifyInstance;
  sidecar: MetricsListener | undefined;
  scrape: Scrape;
  peers: Peers;
  timers: Timers;
  leaving: AbortController;
}) {
  s.peers.unlisten();
  s.parts.pauses.stop();
  const maintenanceDone = s.parts.maintenance.stop();
  const timersDone = s.timers.stop();
  s.leaving.abort();
  await s.run.scheduler.stop();
  // After the scheduler: every run has ended, so no page is open when the browser goes.
  await s.run.runner.close();
  await s.app.close();
  await s.sidecar?.close();
  await s.scrape.close();
  await s.status.alerting.stop();
  await timersDone;
  await maintenanceDone;
  s.parts.faults.stop();
  await s.parts.storage.close();
}

/** Listeners of an event whose source is built before them (the runner hub before the engine). */
interface Listeners {
  emit(): void;
  on(listener: () => void): void;
}

function listeners(): Listeners {
  const all = new Set<() => void>();
  return { emit: () => all.forEach((listener) => listener()), on: (listener) => void all.add(listener) };
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
