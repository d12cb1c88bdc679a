// Statuses, incidents and alerts, and the two ways a result reaches them: a result
// recorded directly and a queued run's result completed by its holder.
import type { CheckResult } from '../../api/schemas/index.js';
import { maskResultRequest } from '../../domain/mask.js';
import { createAlerting, type Alerting } from '../alerting/index.js';
import { createAlertPlanner } from '../alerting/planner.js';
import { createDependencyEnds } from '../alerting/dependency-ends.js';
import { createDependencyHolds } from '../alerting/dependency-hold.js';
import { createDependencyWaits } from '../alerting/dependency-wait.js';
import { sweepDependencyEnds } from '../alerting/dependency-sweep.js';
import type { Holds } from './holds.js';
import type { RunResult } from '../runners/types.js';
import { notRunnableReason } from '../runners/index.js';
import { createRunTally, type RunTally } from '../metrics/run-tally.js';
import { createStatusEngine, type StatusEngine } from '../status/engine.js';
import { LIST_PERIOD } from '../status/cache.js';
import { createLocationOutages, type LocationOutages } from '../outages/index.js';
import { createHealth, type Health } from '../status/health.js';
import { DAY_MS } from '../storage/history.js';
import { isPgStorage } from '../storage/open.js';
import type { ClaimedRun } from '../storage/types.js';
import type { Base } from './base.js';
import type { RunSide } from './run-side.js';

export interface StatusSide {
  engine: StatusEngine;
  alerting: Alerting;
  /** Stores a result as if a runner had produced it (status, incidents and all). */
  record(accountId: string, result: RunResult): Promise<void>;
  /** A queued run's result: stored once, by the run's holder only, then judged. */
  complete(held: Pick<ClaimedRun, 'id' | 'token' | 'accountId'>, run: RunResult): Promise<boolean>;
  health: Health;
  /** Each check's runs stored here (checkwall_check_runs_total). */
  runs: RunTally;
  /** A parent check's recovery, ending its hold over its dependents (alerting/dependency-ends.ts). */
  dependencyEnds: ReturnType<typeof createDependencyEnds>;
  /** Locations declared down, holding their checks' pages (outages/index.ts). */
  outages: LocationOutages;
  /** At start: pages the dependents a stopped service left held with no parent failing. */
  sweepDependencyEnds(): Promise<number>;
}

export function createStatusSide(base: Base, run: RunSide, holds: Holds): StatusSide {
  const { opts, clock, storage, accounts, live, faults, metrics } = base;
  const { maintenance } = holds;
  // A parent's status is asked of the engine when a dependent's page is planned, never before it exists.
  const dependencies = createDependencyHolds({ storage, statusOf: (a, c) => engine.statusOf(a, c) });
  const dependencyWaits = createDependencyWaits({
    storage,
    accounts,
    statusOf: (a, c) => engine.statusOf(a, c),
    holds: dependencies,
  });
  const planner = createAlertPlanner({
    storage,
    now: clock.now,
    publicUrl: opts.config.publicUrl,
    maintenanceOf: (account, check) => maintenance.activeOver(account, check)?.window,
    dependencyHolds: dependencies.holdsAt,
    locationHold: (accountId, locationId) => outages.holdAt(accountId, locationId),
    holdWait: (account, check, locationId) => outages.holdWait(account, check, locationId),
    dependencyWait: dependencyWaits.waitFor,
  });
  const dependencyEnds = createDependencyEnds(clock.now);
  const engine = createStatusEngine({
    storage,
    rawRetentionMs: () => live.config.retentionDays * DAY_MS,
    scheduler: run.scheduler,
    now: clock.now,
    alerts: dependencyEnds.watch(planner),
    runners: run.hub,
    notRunnableReason,
    pausedOf: (accountId, checkId) => holds.pauses.of(accountId, checkId),
    excludedOf: (account, check, from, to) => maintenance.excludedOver(account, check, from, to),
    maintenanceOf: (account, check) => heldByMaintenance(holds, account, check),
    heartbeatOf: (accountId, check) => run.heartbeats.of(accountId, check),
    // Two batches of 100 checks' reads in flight (storage/pg/per-key.ts), the next ones gathering.
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
  const health = createHealth({
    clock,
    storage: faults,
    skippedLastMinute: () => run.scheduler.skippedLastMinute(),
    lastSeen: (accountId, locationId) => run.hub.lastSeen(accountId, locationId),
    config: () => live.config,
  });
  const outages = createLocationOutages({
    storage,
    accounts,
    clock,
    publicUrl: opts.config.publicUrl,
    maintenanceOf: (account, check) => maintenance.activeOver(account, check)?.window,
    statuses: (account) => engine.list(account, LIST_PERIOD),
    lastSeen: (accountId, locationId) => run.hub.lastSeen(accountId, locationId),
    moved: () => engine.scheduleMoved(),
    version: () => engine.version(),
    pageStillFailing: (hold, checks) => alerting.pageStillFailing(hold, checks),
    settleOtherWaits: dependencyWaits.settle,
    kick: () => alerting.kick(),
  });
  const sweep = () =>
    sweepDependencyEnds({
      storage,
      accounts,
      statusOf: (a, c) => engine.statusOf(a, c),
      holds: dependencies,
      pageStillFailing: (hold, checks) => alerting.pageStillFailing(hold, checks),
    });
  return {
    ...{ engine, alerting, health, dependencyEnds, outages, sweepDependencyEnds: sweep },
    ...recording(base, engine),
  };
}

/** The active window over a check as the status shows it, and the one pausing it if any. */
function heldByMaintenance(holds: Holds, ...over: Parameters<Holds['maintenance']['activeOver']>) {
  const active = holds.maintenance.activeOver(...over);
  if (!active) return undefined;
  const held = (a: typeof active) => ({
    id: a.window.id,
    name: a.window.name,
    startsAt: a.occurrence.startsAt,
    endsAt: a.occurrence.endsAt,
    mode: a.window.mode,
  });
  const pause = holds.maintenance.pauseOver(...over);
  return { active: held(active), pause: pause && held(pause) };
}

/** Stores a result and judges it, in order with the check's other results; counts what was stored. */
function recording({ storage, accounts }: Base, engine: StatusEngine) {
  const runs = createRunTally();
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
  return {
    runs,
    async record(accountId: string, run: RunResult) {
      // The picture is stored apart; the result's JSON keeps only `hasScreenshot`.
      const { screenshot, ...result } = maskResultRequest(run);
      await store(accountId, result, async () => {
        await storage.insertResult(accountId, result);
        if (screenshot) await storage.insertScreenshot(accountId, result, screenshot);
        return true;
      });
    },
    complete(held: Pick<ClaimedRun, 'id' | 'token' | 'accountId'>, run: RunResult) {
      const { screenshot, ...result } = maskResultRequest(run);
      return store(held.accountId, result, () =>
        storage.completeRun(held.id, held.token, held.accountId, result, screenshot),
      );
    },
  };
}
