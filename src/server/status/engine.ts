// The status engine: turns stored results into check statuses (compute.ts), keeps them
// (cache.ts), and opens and closes incidents and alerts as checks turn failing and
// recover. Its parts: how a status is had (reads.ts: kept, derived again from kept
// inputs, or read), the write path of a result (result-path.ts, with the incident rule of
// incident-rule.ts), and the warmer's turn (warm-pass.ts). Statuses of other periods are
// read on request and kept 30 s. The list endpoint reads the account's snapshot and
// never computes a status in steady state.
import type { CheckResult, CheckStatus, CheckStatusValue, Period } from '../../api/schemas/index.js';
import { checkKey } from '../../domain/keys.js';
import type { AccountConfig, CheckConfig } from '../config/schema.js';
import type { Moved } from '../config/diff.js';
import type { AlertChange, Storage } from '../storage/types.js';
import { createStatusCache, LIST_PERIOD } from './cache.js';
import type { StatusEnvironment } from './compute.js';
import { createPresenter, type PresenterDeps } from './present.js';
import { createStatusReads } from './reads.js';
import { createResultPath } from './result-path.js';
import { createSerial } from './serial.js';
import { createWarmPass } from './warm-pass.js';

export { CACHE_MS } from './reads.js';

/** A check's status moved: what the alert planner (alerting/planner.ts) is given. */
export interface StatusChange {
  account: AccountConfig;
  check: CheckConfig;
  before: CheckStatusValue;
  status: CheckStatus;
  result: CheckResult;
  incidentId: string | null;
  /** Whether the check has an open alert, when the inputs know; undefined: read it. */
  alertOpen?: boolean | undefined;
}

/** Who pages on a status change (the alert planner, wired by service.ts): the rows it adds to the change. */
export interface StatusAlerts {
  onStatusChange(
    change: StatusChange,
  ): Promise<Pick<AlertChange, 'openAlert' | 'resolveAlert' | 'notifications' | 'certificateNotice'> | null>;
}

export interface StatusEngineDeps extends PresenterDeps {
  storage: Storage;
  now: () => number;
  /** Absent: incidents only, no alerts (tests of the engine alone). */
  alerts?: StatusAlerts | undefined;
  /** Statuses read from storage at once (default COMPUTING_AT_ONCE). */
  readsAtOnce?: number | undefined;
  /** Why this service cannot run a check (runners/index.ts); absent: every check can run. */
  notRunnableReason?: StatusEnvironment['notRunnableReason'];
  /**
   * How long raw results are kept (retentionDays): a longer period's window is read
   * from the daily roll-ups where the results may be gone. Absent: results are kept.
   */
  rawRetentionMs?: (() => number) | undefined;
  /** A person's pause of a check (schedule/pauses.ts); absent: none is. */
  pausedOf?: StatusEnvironment['pausedOf'];
  /** Maintenance windows over a check (maintenance/windows.ts); absent: none is. */
  maintenanceOf?: StatusEnvironment['maintenanceOf'];
  excludedOf?: StatusEnvironment['excludedOf'];
  /** A heartbeat check's judgement (heartbeats/judge.ts); absent: heartbeats judged by their runs alone. */
  heartbeatOf?: StatusEnvironment['heartbeatOf'];
}

export type StatusEngine = ReturnType<typeof createStatusEngine>;

export function createStatusEngine(deps: StatusEngineDeps) {
  const cache = createStatusCache();
  const serial = createSerial();
  const perCheck = <T>(account: AccountConfig, check: CheckConfig, job: () => Promise<T>) =>
    serial(checkKey(account.id, check.id), job);
  // Moves whenever a check's status, incident or alert changes: answers built from
  // statuses may be reused only while it stands still (see http/status-list.ts).
  let version = 0;
  const moved = () => void version++;
  const notified = new Set<() => void>();
  const reads = createStatusReads(deps, cache, moved);
  const present = createPresenter(deps);
  const results = createResultPath({
    deps,
    cache,
    reads,
    present,
    perCheck,
    moved,
    notify: () => notified.forEach((listener) => listener()),
  });

  async function statusOf(account: AccountConfig, check: CheckConfig, period: Period = LIST_PERIOD) {
    return present(account.id, await reads.cachedOrFresh(account, check, period));
  }

  /**
   * The account's statuses for a list, in config order, without what `present` adds.
   * The default period comes from the snapshot as it stands (computed only where
   * missing: a cold start or a reload); another period from the cache.
   */
  async function list(account: AccountConfig, period: Period): Promise<CheckStatus[]> {
    if (period !== LIST_PERIOD)
      return Promise.all(account.checks.map((c) => reads.cachedOrFresh(account, c, period)));
    const snapshot = cache.list(account);
    if (!snapshot.includes(undefined)) return snapshot as CheckStatus[];
    return Promise.all(account.checks.map((c, i) => snapshot[i] ?? reads.fresh(account, c, period)));
  }

  return {
    statusOf,
    list,
    present,
    record: results.record,
    rereadCheck: results.rereadCheck,
    peerResult: results.peerResult,
    warm: createWarmPass(reads, cache, deps.now),
    /** `listener` is called after a change queued notifications (the dispatcher looks at once). */
    onNotifications(listener: () => void) {
      notified.add(listener);
    },
    /** Runs `job` in order with the check's results (a reminder must not cross its alert's resolution). */
    perCheck,
    /** Moves when a check's status, incident or alert changes (not for every result). */
    version: () => version,
    /**
     * What `present` reads fresh into every status moved (a check began skipping runs):
     * nothing is read or derived, but answers built before are stale.
     */
    scheduleMoved: moved,
    /**
     * Something every status is derived from moved (a location's runners came back):
     * each is derived again from its kept inputs, reading nothing; the version moves only
     * for those whose value does.
     */
    rederiveAll: () => cache.expire(),
    /** A reload: the statuses of the checks it moved are read again from storage, the others kept. */
    rereadChecks(checks: Moved) {
      cache.forget(checks);
      if (checks.size > 0) moved();
    },
    /** Anything may have moved (a lost connection to the other instances): every status is read again. */
    rereadAll() {
      moved();
      cache.clear();
    },
  };
}
