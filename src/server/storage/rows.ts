// What both storages write the same way, in the same column order.
import type { CheckResult, ResultsSummary } from '../../api/schemas/index.js';
import { round } from '../../domain/stats.js';
import type { NewNotification, RecentRun } from './types.js';

/**
 * The response time a result is stored with (the `response_time` column): what
 * averages, percentiles and filters read. A TCP connect has no response; its
 * successful duration is its response time.
 */
/** A results row's run, as statuses read it (`ok` is 1/0 in SQLite, a boolean in PostgreSQL). */
export const runOf = (row: {
  startedAt: number;
  ok: number | boolean;
  responseTime: number | null;
}): RecentRun => ({
  startedAt: row.startedAt,
  status: row.ok ? 'success' : 'failed',
  responseTime: row.responseTime,
});

export const storedResponseTime = (r: CheckResult): number | null =>
  r.response?.responseTime ?? (r.error ? null : r.duration);

/**
 * An outbox row's values: id, account, channel, check, alert, event, status,
 * payload (JSON text), last error, created at, next attempt (while pending: its wait's end, else
 * its group's time, else now), what it waits on, when its group goes (a released wait keeps it:
 * settleWaiting).
 */
export const notificationValues = (accountId: string, n: NewNotification, now: number) =>
  [
    n.id,
    accountId,
    n.channelId,
    n.checkId,
    n.alertId,
    n.event,
    n.status,
    JSON.stringify(n.payload),
    n.lastError ?? null,
    now,
    n.status === 'pending' ? (n.wait?.until ?? n.groupUntil ?? now) : null,
    n.status === 'pending' ? (n.wait?.on ?? null) : null,
    n.status === 'pending' ? (n.groupUntil ?? null) : null,
  ] as const;

/** The columns notificationValues fills, in its order. */
export const NOTIFICATION_INSERT = `INSERT INTO alert_notifications (id, account_id, channel_id, check_id, alert_id,
  event, status, payload, last_error, created_at, next_attempt_at, waiting_on, group_until)`;

/** Why an alert's later notices are held on a channel its failure notice was held on. */
export const FAILURE_HELD = 'suppressed: the failure notice of this alert was suppressed here';

/**
 * A waiting page whose wait ran out this long ago is sent by the dispatcher even when no one
 * settled it (the instance judging its hold died): a page is never lost to a wait.
 */
export const WAIT_GRACE_MS = 30_000;

/** A results list's summary from its counts and percentiles (0 where there is nothing to measure). */
export const resultsSummary = (
  agg: { total: number; ok: number; avg: number | null },
  p95: number | null,
  p99: number | null,
): ResultsSummary => ({
  totalRuns: agg.total,
  successfulRuns: agg.ok,
  failedRuns: agg.total - agg.ok,
  successRate: agg.total === 0 ? 0 : round((agg.ok / agg.total) * 100, 2),
  averageResponseTime: agg.avg === null ? 0 : round(agg.avg, 2),
  p95ResponseTime: p95 ?? 0,
  p99ResponseTime: p99 ?? 0,
});
