// Turns stored results into check statuses (status-compute.ts), keeps them
// (status-cache.ts), and opens and closes incidents and alerts as checks turn
// failing and recover. Statuses are cached per check and period, recomputed
// when a result for that check arrives, and refreshed by the service's warmer
// before they age (windows slide); the list endpoint reads the account's
// snapshot and never computes a status in steady state.
import { randomUUID } from 'node:crypto';
import { setImmediate as yieldToIo } from 'node:timers/promises';
import type { CheckResult, CheckStatus, CheckStatusValue, Period } from '../api/schemas.js';
import type { AccountConfig, CheckConfig } from './config-schema.js';
import type { Scheduler } from './contracts.js';
import { skippedReason } from './run-accounting.js';
import type { AlertPlanner } from './alerting/planner.js';
import { createLimit, createSerial } from './serial.js';
import { createStatusCache, LIST_PERIOD } from './status-cache.js';
import { computeStatus } from './status-compute.js';
import type { AlertChange, Storage } from './storage/types.js';

// Windows slide slowly; a new result recomputes its check's status at once. The
// service's warmer (service.ts) refreshes statuses before they expire.
export const CACHE_MS = 30_000;
// The warmer gives the event loop back this often: requests do not wait behind it.
const WARM_SLICE_MS = 4;
const COMPUTING_AT_ONCE = 4;

export interface StatusEngineDeps {
  storage: Storage;
  scheduler: Pick<Scheduler, 'nextRun' | 'skippedRecently'>;
  now: () => number;
  /** Absent: incidents only, no alerts (tests of the engine alone). */
  alerts?: AlertPlanner | undefined;
  /** Called after a change queued notifications: the dispatcher looks at once. */
  onNotifications?: (() => void) | undefined;
  /** Newest contact of a remote location's runners (runner-hub.ts); absent: no remote runners. */
  runners?: { lastSeen(accountId: string, locationId: string): number | null } | undefined;
}

export type StatusEngine = ReturnType<typeof createStatusEngine>;

export function createStatusEngine(deps: StatusEngineDeps) {
  const cache = createStatusCache();
  const serial = createSerial();
  // Statuses computed at once: each is about ten queries; the rest wait their turn.
  const computing = createLimit(COMPUTING_AT_ONCE);
  const perCheck = <T>(account: AccountConfig, check: CheckConfig, job: () => Promise<T>) =>
    serial(`${account.id}\u0000${check.id}`, job);
  // Moves whenever a check's status, incident or alert changes: answers built from
  // statuses may be reused only while it stands still (see http/status-list.ts).
  let version = 0;

  /** Computes a status now and keeps it (unless the check changed meanwhile). */
  async function fresh(account: AccountConfig, check: CheckConfig, period: Period): Promise<CheckStatus> {
    const ticket = cache.ticket(account, check);
    let now = 0;
    const { status, until } = await computing(() =>
      computeStatus(
        deps.storage,
        account,
        check,
        period,
        (now = deps.now()),
        (accountId, locationId) => deps.runners?.lastSeen(accountId, locationId) ?? null,
      ),
    );
    if (cache.set(ticket, period, now, status, until)) version++;
    return status;
  }

  async function cachedOrFresh(account: AccountConfig, check: CheckConfig, period: Period) {
    const hit = cache.get(account, check, period);
    const now = deps.now();
    return hit && now - hit.at < CACHE_MS && now >= hit.at && now < hit.until
      ? hit.status
      : fresh(account, check, period);
  }

  /**
   * The status with what moves on its own read fresh, never from the cache: the
   * schedule (a run may be skipped or still queued), whether runs are being skipped,
   * and when a remote location's runner was last in touch.
   */
  function present(accountId: string, status: CheckStatus): CheckStatus {
    const { enabled } = status.schedule;
    const nextRun = enabled ? deps.scheduler.nextRun(accountId, status.checkId) : null;
    const skipped = enabled ? deps.scheduler.skippedRecently(accountId, status.checkId) : 0;
    const statusReason =
      skipped === 0
        ? status.statusReason
        : [status.statusReason, skippedReason(skipped)].filter(Boolean).join('; ');
    return {
      ...status,
      schedule: { ...status.schedule, nextRun: nextRun?.toISOString() ?? null },
      statusReason,
      locations: seen(accountId, status),
    };
  }

  /**
   * A remote location's runner contact is read fresh, as the schedule is (cheap: remote ones
   * only); the computed one stays when newer (it counts the location's newest result).
   */
  function seen(accountId: string, status: CheckStatus): CheckStatus['locations'] {
    if (!status.locations.some((l) => l.remote)) return status.locations;
    return status.locations.map((l) => {
      if (!l.remote) return l;
      const at = deps.runners?.lastSeen(accountId, l.id) ?? null;
      const computed = l.runnerLastSeen ? Date.parse(l.runnerLastSeen) : null;
      return at === null || (computed !== null && computed >= at)
        ? l
        : { ...l, runnerLastSeen: new Date(at).toISOString() };
    });
  }

  async function statusOf(account: AccountConfig, check: CheckConfig, period: Period = LIST_PERIOD) {
    return present(account.id, await cachedOrFresh(account, check, period));
  }

  /**
   * The account's statuses for a list, in config order, without what `present` adds.
   * The default period comes from the snapshot as it stands (computed only where
   * missing: a cold start or a reload); another period from the cache.
   */
  async function list(account: AccountConfig, period: Period): Promise<CheckStatus[]> {
    if (period !== LIST_PERIOD)
      return Promise.all(account.checks.map((c) => cachedOrFresh(account, c, period)));
    const snapshot = cache.list(account);
    if (!snapshot.includes(undefined)) return snapshot as CheckStatus[];
    return Promise.all(account.checks.map((c, i) => snapshot[i] ?? fresh(account, c, period)));
  }

  /**
   * Stores a result (`write`) and moves the check's status, incident and alert, in
   * order with the check's other results: `before` is the status before this result,
   * and two results arriving together cannot both open an incident. A write that
   * answers false stored nothing (a run another holder has): nothing moves.
   */
  function record(
    account: AccountConfig,
    check: CheckConfig,
    result: CheckResult,
    write: () => Promise<boolean>,
  ): Promise<boolean> {
    return perCheck(account, check, async () => {
      const before = (await cachedOrFresh(account, check, LIST_PERIOD)).status;
      if (!(await write())) return false;
      await onResult(account, check, result, before);
      return true;
    });
  }

  /** Recomputes the status, then writes the incident, alert and outbox rows in one transaction. */
  async function onResult(
    account: AccountConfig,
    check: CheckConfig,
    result: CheckResult,
    before: CheckStatusValue,
  ) {
    cache.drop(account, check);
    const status = present(account.id, await fresh(account, check, LIST_PERIOD));
    // The list answers (http/status-list.ts) are rebuilt at once when a check's
    // status moves; other figures may be up to their 2 s old.
    if (status.status !== before) version++;
    const open = await deps.storage.currentIncident(account.id, check.id);
    const at = Date.parse(result.finishedAt);
    const change: AlertChange = { checkId: check.id, at: deps.now(), notifications: [] };
    if (status.status === 'failing' && !open) {
      change.openIncident = {
        id: randomUUID(),
        checkId: check.id,
        severity: 'critical',
        title: `${check.name} is failing: ${status.statusReason ?? ''}`.trim(),
        startedAt: at,
        endedAt: null,
      };
    } else if (open && (status.status === 'passing' || status.status === 'degraded')) {
      change.closeIncidentAt = at;
    }
    const incidentId = change.openIncident?.id ?? open?.id ?? null;
    const plan = await deps.alerts?.onStatusChange({ account, check, before, status, result, incidentId });
    if (!plan && !change.openIncident && change.closeIncidentAt === undefined) return;
    await deps.storage.applyAlertChange(account.id, { ...change, ...plan });
    if (plan?.notifications.length) deps.onNotifications?.();
    await invalidate(account, check);
  }

  /** An incident or alert moved (acknowledged, reminded, a delivery failed): the status is recomputed. */
  async function invalidate(account: AccountConfig, check: CheckConfig) {
    cache.drop(account, check);
    await fresh(account, check, LIST_PERIOD);
    version++;
  }

  /**
   * Recomputes the default-period statuses that are missing or past 60 % of their
   * life, in config order, for at most `budgetMs`, giving the event loop back every
   * few milliseconds: called on a timer so the list finds them ready.
   */
  async function warm(
    pairs: ReadonlyArray<{ account: AccountConfig; check: CheckConfig }>,
    budgetMs: number,
  ): Promise<number> {
    const started = performance.now();
    let slice = started;
    const now = deps.now();
    let done = 0;
    for (const { account, check } of pairs) {
      const hit = cache.get(account, check, LIST_PERIOD);
      if (hit && now - hit.at < CACHE_MS * 0.6 && now >= hit.at && now < hit.until) continue;
      await fresh(account, check, LIST_PERIOD);
      done++;
      const t = performance.now();
      if (t - started > budgetMs) break;
      if (t - slice > WARM_SLICE_MS) {
        await yieldToIo();
        slice = performance.now();
      }
    }
    return done;
  }

  return {
    statusOf,
    list,
    present,
    record,
    invalidate,
    warm,
    /** Runs `job` in order with the check's results (a reminder must not cross its alert's resolution). */
    perCheck,
    /** Moves when a check's status, incident or alert changes (not for every result). */
    version: () => version,
    /** Something read fresh into every status changed (a check began skipping runs). */
    touch() {
      version++;
    },
    clear() {
      version++;
      cache.clear();
    },
  };
}
