// Turns stored results into check statuses (status-compute.ts), keeps them
// (status-cache.ts), and opens and closes incidents and alerts as checks turn
// failing and recover. A check's inputs (status-inputs.ts) are read once, then
// moved by each result as it is stored, here or on another instance, so a result
// costs no reads; the status is derived from them again when a result arrives,
// and by the service's warmer once time alone may move it (its `until`: a run too
// old, a runner silent, a run leaving the window). Statuses of other periods are
// read on request and kept 30 s. The list endpoint reads the account's snapshot
// and never computes a status in steady state.
import { randomUUID } from 'node:crypto';
import { setImmediate as yieldToIo } from 'node:timers/promises';
import type { CheckResult, CheckStatus, CheckStatusValue, Period } from '../../api/schemas.js';
import { checkKey } from '../../domain/keys.js';
import { PERIOD_MS } from '../../domain/period.js';
import type { AccountConfig, CheckConfig } from '../config/schema.js';
import type { Moved } from '../config/diff.js';
import { createLimit, createSerial } from './serial.js';
import { createPresenter, type PresenterDeps } from './present.js';
import { createStatusCache, LIST_PERIOD, type Ticket } from './cache.js';
import { EXACT_RUNS, EXCLUDING_RUNS } from './window.js';
import { deriveStatus, type StatusEnvironment } from './compute.js';
import { degradedSince, type DegradedMemory } from './degraded-since.js';
import {
  applyResult,
  checkLocations,
  loadInputs,
  mergeSlow,
  readSlowParts,
  type StatusInputs,
} from './inputs.js';
import type { AlertChange, Storage } from '../storage/types.js';

// A status of another period than the list's, read on request, is kept this long. The
// list's statuses are kept until a result, a read of their slow parts or their `until`.
export const CACHE_MS = 30_000;
// The warmer gives the event loop back this often: requests do not wait behind it.
const WARM_SLICE_MS = 4;
// Statuses read from storage at once (about ten reads each), the rest waiting their turn:
// SQLite answers each read at once on this thread, so a few at a time leave room for
// requests; PostgreSQL sends the reads of many together (storage/pg-per-key.ts).
const COMPUTING_AT_ONCE = 4;

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
}

export type StatusEngine = ReturnType<typeof createStatusEngine>;

export function createStatusEngine(deps: StatusEngineDeps) {
  const cache = createStatusCache();
  const rawMs = () => deps.rawRetentionMs?.() ?? Number.POSITIVE_INFINITY;
  const serial = createSerial();
  const computing = createLimit(deps.readsAtOnce ?? COMPUTING_AT_ONCE);
  const perCheck = <T>(account: AccountConfig, check: CheckConfig, job: () => Promise<T>) =>
    serial(checkKey(account.id, check.id), job);
  // Moves whenever a check's status, incident or alert changes: answers built from
  // statuses may be reused only while it stands still (see http/status-list.ts).
  let version = 0;
  const notified = new Set<() => void>();

  const env: StatusEnvironment = {
    runnerSeenAt: (accountId, locationId) => deps.runners?.lastSeen(accountId, locationId) ?? null,
    notRunnableReason: deps.notRunnableReason,
    pausedOf: deps.pausedOf,
    maintenanceOf: deps.maintenanceOf,
    excludedOf: deps.excludedOf,
  };

  // Per check, since when it has been degraded (degraded-since.ts): kept apart from the
  // cache, which drops a check's statuses whenever its incident or alert moves.
  const degraded = new Map<string, number | null>();

  /** Derives a status and says since when it has been degraded; the default period's moves the memory. */
  function judge(
    account: AccountConfig,
    check: CheckConfig,
    inputs: StatusInputs,
    now: number,
    keep: boolean,
  ) {
    const computed = deriveStatus(inputs, account, check, now, env);
    const key = checkKey(account.id, check.id);
    const before: DegradedMemory = degraded.get(key);
    const since = degradedSince(before, computed.status, inputs, now);
    if (keep) degraded.set(key, since);
    computed.status.degradedSince = since === null ? null : new Date(since).toISOString();
    return computed;
  }

  /** Derives the default period's status from the inputs at `now` and keeps it; the status. */
  function derive(
    ticket: Ticket,
    account: AccountConfig,
    check: CheckConfig,
    inputs: StatusInputs,
    now: number,
  ): CheckStatus {
    const { status, until } = judge(account, check, inputs, now, true);
    if (cache.set(ticket, LIST_PERIOD, now, status, until)) version++;
    return status;
  }

  /**
   * Reads a status now and keeps it (unless the check moved meanwhile); for the
   * default period, its inputs too, kept current from then on.
   */
  async function fresh(account: AccountConfig, check: CheckConfig, period: Period): Promise<CheckStatus> {
    const ticket = cache.ticket(account, check);
    let now = 0;
    const keep = period === LIST_PERIOD;
    const inputs = await computing(() => {
      now = deps.now();
      // Under a window that excludes its runs from the availability, each run is kept to be told in or out.
      const excluding =
        keep && (deps.excludedOf?.(account, check, now - PERIOD_MS[period], now).length ?? 0) > 0;
      return loadInputs(
        deps.storage,
        account,
        check,
        period,
        now,
        keep,
        rawMs(),
        excluding ? EXCLUDING_RUNS : EXACT_RUNS,
      );
    });
    if (keep) {
      cache.setInputs(ticket, inputs);
      return derive(ticket, account, check, inputs, now);
    }
    const { status, until } = judge(account, check, inputs, now, false);
    cache.set(ticket, period, now, status, until);
    return status;
  }

  /**
   * The status as kept while it is young; else derived again from its inputs
   * (no reads), or read (a cold start, an invalidation, another period).
   */
  async function cachedOrFresh(account: AccountConfig, check: CheckConfig, period: Period) {
    const hit = cache.get(account, check, period);
    const now = deps.now();
    if (hit && now >= hit.at && now < hit.until && (period === LIST_PERIOD || now - hit.at < CACHE_MS))
      return hit.status;
    const inputs = period === LIST_PERIOD ? cache.inputs(account, check) : undefined;
    if (inputs) return derive(cache.ticket(account, check), account, check, inputs, now);
    return fresh(account, check, period);
  }

  /**
   * Reads again what moves with time alone (status-inputs.ts), kept only if no
   * result or change reached the check meanwhile (the next pass tries again).
   */
  async function refreshSlow(account: AccountConfig, check: CheckConfig, inputs: StatusInputs) {
    const ticket = cache.ticket(account, check);
    const read = await computing(() =>
      readSlowParts(deps.storage, account, check, inputs, deps.now(), rawMs()),
    );
    const merged = mergeSlow(inputs, read);
    if (cache.setInputs(ticket, merged)) derive(ticket, account, check, merged, read.now);
  }

  /**
   * A stored result moves the kept inputs (no reads); with none kept, they are
   * read, which finds the result stored. The new status, or undefined when the
   * inputs held the result already.
   */
  async function addResult(account: AccountConfig, check: CheckConfig, result: CheckResult) {
    const inputs = cache.inputs(account, check);
    if (!inputs) {
      cache.drop(account, check);
      return fresh(account, check, LIST_PERIOD);
    }
    // Reads begun before this result may not hold it: they are voided.
    const ticket = cache.renew(account, check);
    const now = deps.now();
    if (!applyResult(inputs, checkLocations(account, check), result, now)) return undefined;
    return derive(ticket, account, check, inputs, now);
  }

  const present = createPresenter(deps);

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

  /** Moves the status, then writes the incident, alert and outbox rows in one transaction. */
  async function onResult(
    account: AccountConfig,
    check: CheckConfig,
    result: CheckResult,
    before: CheckStatusValue,
  ) {
    const moved = await addResult(account, check, result);
    if (!moved) return;
    const status = present(account.id, moved);
    // The list answers (http/status-list.ts) are rebuilt at once when a check's
    // status moves; other figures may be up to their 2 s old.
    if (status.status !== before) version++;
    // Kept in the inputs (read anew whenever an incident or alert moves): no read per result.
    const inputs = cache.inputs(account, check);
    const open = inputs ? inputs.incident : await deps.storage.currentIncident(account.id, check.id);
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
    const alertOpen = inputs ? inputs.alert !== null : undefined;
    const input = { account, check, before, status, result, incidentId, alertOpen };
    const plan = await deps.alerts?.onStatusChange(input);
    if (!plan && !change.openIncident && change.closeIncidentAt === undefined) return;
    await deps.storage.applyAlertChange(account.id, { ...change, ...plan });
    if (plan?.notifications.length) for (const listener of notified) listener();
    await rereadCheck(account, check);
  }

  /** An incident or alert moved (acknowledged, reminded, a delivery failed): the status is read anew. */
  async function rereadCheck(account: AccountConfig, check: CheckConfig) {
    cache.drop(account, check);
    await fresh(account, check, LIST_PERIOD);
    version++;
  }

  /**
   * Another instance stored a result (PostgreSQL's NOTIFY): it moves this one's
   * status as its own results do, in order with them; without the result, the
   * status is read anew.
   */
  function peerResult(account: AccountConfig, check: CheckConfig, result: CheckResult | undefined) {
    return perCheck(account, check, async () => {
      if (!result) return rereadCheck(account, check);
      const before = cache.get(account, check, LIST_PERIOD)?.status.status;
      const after = await addResult(account, check, result);
      if (after && after.status !== before) version++;
    });
  }

  /** Where the next warm goes on in its list of checks. */
  let warmAt = 0;

  /**
   * Keeps the default-period statuses ready, looking at `share` of the checks (all by
   * default) from where the last call stopped, for at most `budgetMs`, giving the event
   * loop back every few milliseconds (called on a timer, so the list finds them ready): a
   * missing one is read, one past its `until` derived again from its inputs (no reads),
   * and inputs whose slow part is due (status-inputs.ts) have it read again. A status
   * time alone does not move is left alone: its check's next result derives it.
   */
  async function warm(
    pairs: ReadonlyArray<{ account: AccountConfig; check: CheckConfig }>,
    budgetMs: number,
    share = 1,
  ): Promise<number> {
    const started = performance.now();
    let slice = started;
    const now = deps.now();
    const n = pairs.length;
    const looks = Math.min(n, Math.ceil(n * share));
    let done = 0;
    let looked = 0;
    const from = warmAt % Math.max(1, n);
    while (looked < looks) {
      const { account, check } = pairs[(from + looked) % n]!;
      looked++;
      const inputs = cache.inputs(account, check);
      const hit = cache.get(account, check, LIST_PERIOD);
      if (!inputs) await fresh(account, check, LIST_PERIOD);
      else if (now >= inputs.refreshAt) await refreshSlow(account, check, inputs);
      else if (!hit || now < hit.at || now >= hit.until)
        derive(cache.ticket(account, check), account, check, inputs, now);
      else continue;
      done++;
      const t = performance.now();
      if (t - started > budgetMs) break;
      if (t - slice > WARM_SLICE_MS) {
        await yieldToIo();
        slice = performance.now();
      }
    }
    warmAt = from + looked;
    return done;
  }

  return {
    statusOf,
    list,
    present,
    record,
    rereadCheck,
    peerResult,
    warm,
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
    scheduleMoved() {
      version++;
    },
    /**
     * Something every status is derived from moved (a location's runners came back):
     * each is derived again from its kept inputs, reading nothing; the version moves only
     * for those whose value does.
     */
    rederiveAll: () => cache.expire(),
    /** A reload: the statuses of the checks it moved are read again from storage, the others kept. */
    rereadChecks(moved: Moved) {
      cache.forget(moved);
      if (moved.size > 0) version++;
    },
    /** Anything may have moved (a lost connection to the other instances): every status is read again. */
    rereadAll() {
      version++;
      cache.clear();
    },
  };
}
