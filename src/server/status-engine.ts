// Turns stored results into check statuses (spec 2.2) by the rules of
// src/domain/status-rules.ts, and opens and closes incidents as checks turn
// failing and recover. Statuses are cached per check and period, and dropped
// when a result for that check arrives or after a few seconds (windows slide).
import { randomUUID } from 'node:crypto';
import type { CheckResult, CheckStatus, CheckStatusValue, CurrentAlert, Period } from '../api/schemas.js';
import { PERIOD_MS } from '../domain/period.js';
import { round, successRate } from '../domain/stats.js';
import { decideCheckStatus, decideTrend, JUDGED_RUNS } from '../domain/status-rules.js';
import { frequencyToMs, type AccountConfig, type CheckConfig } from './config-schema.js';
import type { Scheduler } from './contracts.js';
import { skippedReason } from './run-accounting.js';
import { runnerReach } from './runner-hub.js';
import { notRunnableReason } from './runners/index.js';
import type { AlertPlanner } from './alerting/planner.js';
import type { AlertChange, Storage } from './storage/types.js';

const TREND_WINDOW_MS = PERIOD_MS['24h'];
// Windows slide slowly; a new result drops its check's entry at once. The
// service's warmer (service.ts) refreshes entries before they expire, so a
// request rarely pays for a recomputation.
export const CACHE_MS = 30_000;

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

interface Entry {
  at: number;
  until: number;
  status: CheckStatus;
}

interface Computed {
  status: CheckStatus;
  /** When it goes stale on its own (a remote location's runner silent too long); Infinity when never. */
  until: number;
}

export function createStatusEngine(deps: StatusEngineDeps) {
  // By check, then period: a result drops its check's entries in one step, not by a
  // scan of every key (at 10,000 checks that scan, twice a result, was the main thread's
  // largest cost per result).
  // `until`: when the entry expires: CACHE_MS after `at`, sooner when a remote location's runner would count as gone.
  const cache = new Map<string, Map<Period, Entry>>();
  const checkKey = (account: AccountConfig, check: CheckConfig) => `${account.id}\u0000${check.id}`;
  const cached = (account: AccountConfig, check: CheckConfig, period: Period) =>
    cache.get(checkKey(account, check))?.get(period);
  const store = (
    account: AccountConfig,
    check: CheckConfig,
    period: Period,
    at: number,
    computed: Computed,
  ) => {
    const key = checkKey(account, check);
    const entries = cache.get(key) ?? new Map<Period, Entry>();
    entries.set(period, { at, until: Math.min(at + CACHE_MS, computed.until), status: computed.status });
    cache.set(key, entries);
  };
  // Moves on whenever a result arrives (or the cache is dropped): answers built from
  // statuses may be reused only while it stands still (see http/status-list.ts).
  let version = 0;

  function statusOf(account: AccountConfig, check: CheckConfig, period: Period = '24h'): CheckStatus {
    const hit = cached(account, check, period);
    const now = deps.now();
    let status = hit && now < hit.until && now >= hit.at ? hit.status : undefined;
    if (!status) {
      const computed = compute(account, check, period, now);
      store(account, check, period, now, computed);
      status = computed.status;
    }
    // The schedule moves on its own (a run may be skipped or still queued), so
    // it is read fresh, never from the cache; so is whether runs are being skipped.
    const skipped = check.enabled ? deps.scheduler.skippedRecently(account.id, check.id) : 0;
    const statusReason =
      skipped === 0
        ? status.statusReason
        : [status.statusReason, skippedReason(skipped)].filter(Boolean).join('; ');
    return { ...status, schedule: schedule(account, check), statusReason, locations: seen(account, status) };
  }

  /** A remote location's runner contact is read fresh, as the schedule is (cheap: remote ones only). */
  function seen(account: AccountConfig, status: CheckStatus): CheckStatus['locations'] {
    if (!status.locations.some((l) => l.remote)) return status.locations;
    return status.locations.map((l) => (l.remote ? { ...l, runnerLastSeen: lastSeen(account, l.id) } : l));
  }

  const lastSeen = (account: AccountConfig, locationId: string) => {
    const at = deps.runners?.lastSeen(account.id, locationId) ?? null;
    return at === null ? null : new Date(at).toISOString();
  };

  function schedule(account: AccountConfig, check: CheckConfig): CheckStatus['schedule'] {
    const nextRun = check.enabled ? deps.scheduler.nextRun(account.id, check.id) : null;
    return { frequency: check.frequency, nextRun: nextRun?.toISOString() ?? null, enabled: check.enabled };
  }

  function compute(account: AccountConfig, check: CheckConfig, period: Period, now: number): Computed {
    const { storage } = deps;
    const window = storage.windowStats(account.id, check.id, now - PERIOD_MS[period], now);
    const current =
      period === '24h'
        ? window
        : storage.windowStats(account.id, check.id, now - TREND_WINDOW_MS, now, false);
    const previous = storage.windowStats(
      account.id,
      check.id,
      now - 2 * TREND_WINDOW_MS,
      now - TREND_WINDOW_MS - 1,
      false,
    );
    const availability = successRate(window.successes, window.total);
    const incident = storage.currentIncident(account.id, check.id);
    const locations = account.locations.filter((l) => check.locations.includes(l.id));
    const unrunnable = notRunnableReason(check);
    const frequencyMs = frequencyToMs(check.frequency);
    const seenAt = (locationId: string) => deps.runners?.lastSeen(account.id, locationId) ?? null;
    const reach = runnerReach(seenAt, locations, check, frequencyMs, now);
    const decision = decideCheckStatus({
      now,
      enabled: check.enabled,
      runnable: unrunnable === undefined,
      notRunnableReason: unrunnable,
      frequencyMs,
      thresholds: { degradedMs: check.degradedMs, failingMs: check.failingMs },
      availability,
      activeCriticalAlerts: incident ? 1 : 0,
      locations: locations.map((l, i) => ({
        id: l.id,
        recent: storage.recentRuns(account.id, check.id, l.id, JUDGED_RUNS),
        noRunner: reach.missing[i],
      })),
    });
    const latest = storage.latestResult(account.id, check.id);
    const group = account.groups.find((g) => g.id === check.group);
    const status: CheckStatus = {
      checkId: check.id,
      checkName: check.name,
      checkType: check.type,
      status: decision.status,
      availability: { percentage: availability === null ? null : round(availability, 3), period },
      performance: {
        averageResponseTime:
          window.averageResponseTime === null ? null : round(window.averageResponseTime, 2),
        p95ResponseTime: window.p95ResponseTime,
        trend: decideTrend(
          {
            averageResponseTime: current.averageResponseTime,
            availability: successRate(current.successes, current.total),
          },
          {
            averageResponseTime: previous.averageResponseTime,
            availability: successRate(previous.successes, previous.total),
          },
        ),
      },
      lastExecution: latest ? lastExecution(latest) : null,
      currentIncident: incident
        ? {
            id: incident.id,
            severity: incident.severity,
            startedAt: new Date(incident.startedAt).toISOString(),
            title: incident.title,
          }
        : null,
      alerts: storage.alertCounts(account.id, check.id, now),
      currentAlert: currentAlert(storage, account.id, check.id),
      schedule: schedule(account, check),
      locations: locations.map((l, i) => {
        const at = storage.lastSuccess(account.id, check.id, l.id);
        const entry: CheckStatus['locations'][number] = {
          id: l.id,
          name: l.name,
          status: decision.locations[i]!.status,
          lastSuccess: at === null ? null : new Date(at).toISOString(),
          remote: l.remote,
          runnerLastSeen: l.remote ? lastSeen(account, l.id) : null,
        };
        if (reach.missing[i]) entry.statusReason = reach.missing[i];
        return entry;
      }),
      tags: check.tags,
      group: group ? { id: group.id, name: group.name } : null,
      statusReason: decision.reason,
    };
    return { status, until: reach.until };
  }

  const drop = (account: AccountConfig, check: CheckConfig) => cache.delete(checkKey(account, check));

  /**
   * After a result is stored: drop the check's cached statuses, move its incident
   * and its alert, and queue the notifications, all in one transaction.
   * `before` is the status the check had before this result.
   */
  function onResult(
    account: AccountConfig,
    check: CheckConfig,
    result: CheckResult,
    before: CheckStatusValue,
  ) {
    drop(account, check);
    const status = statusOf(account, check);
    // The list answers (http/status-list.ts) are rebuilt at once when a check's
    // status moves; other figures may be up to their 2 s old. Bumping for every
    // result rebuilt the whole list ~167 times a second at 10,000 checks.
    if (status.status !== before) version++;
    const open = deps.storage.currentIncident(account.id, check.id);
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
    const plan = deps.alerts?.onStatusChange({ account, check, before, status, result, incidentId });
    if (!plan && !change.openIncident && change.closeIncidentAt === undefined) return;
    deps.storage.applyAlertChange(account.id, { ...change, ...plan });
    if (plan?.notifications.length) deps.onNotifications?.();
    version++;
    drop(account, check);
  }

  /** An alert moved outside a result (acknowledged, reminded, a delivery failed). */
  function invalidate(account: AccountConfig, check: CheckConfig) {
    version++;
    drop(account, check);
  }

  /**
   * Recomputes the default-period statuses that are missing or past 60 % of
   * their life, oldest first, for at most `budgetMs`: called on a timer so the
   * list endpoint finds them ready.
   */
  function warm(
    pairs: ReadonlyArray<{ account: AccountConfig; check: CheckConfig }>,
    budgetMs: number,
  ): number {
    const started = performance.now();
    const now = deps.now();
    let done = 0;
    for (const { account, check } of pairs) {
      const hit = cached(account, check, '24h');
      if (hit && now - hit.at < CACHE_MS * 0.6 && now < hit.until) continue;
      store(account, check, '24h', now, compute(account, check, '24h', now));
      done++;
      if (performance.now() - started > budgetMs) break;
    }
    return done;
  }

  return {
    statusOf,
    onResult,
    invalidate,
    warm,
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

function lastExecution(r: CheckResult): NonNullable<CheckStatus['lastExecution']> {
  const out: NonNullable<CheckStatus['lastExecution']> = {
    timestamp: r.startedAt,
    status: r.status,
    responseTime: r.response?.responseTime ?? r.duration,
    location: r.location.id,
  };
  const failedAssertion = r.assertions.find((a) => !a.passed);
  if (r.error) out.error = `${r.error.name}: ${r.error.message}`;
  else if (failedAssertion)
    out.error =
      `assertion ${failedAssertion.source} ${failedAssertion.property} expected ${failedAssertion.target}, got ${failedAssertion.actual ?? ''}`.replace(
        /\s+/g,
        ' ',
      );
  return out;
}

function currentAlert(storage: Storage, accountId: string, checkId: string): CurrentAlert | null {
  const alert = storage.openAlert(accountId, checkId);
  if (!alert) return null;
  return {
    id: alert.id,
    openedAt: new Date(alert.openedAt).toISOString(),
    acknowledgedAt: alert.acknowledgedAt === null ? null : new Date(alert.acknowledgedAt).toISOString(),
    undelivered: storage.alertNotices(alert.id).filter((n) => n.status === 'failed').length,
  };
}
