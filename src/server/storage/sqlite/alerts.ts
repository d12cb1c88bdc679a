// Alerts (open, acknowledged, reminded, resolved) and the outbox of their
// notifications: enqueued with the status change, claimed with a lease, finished
// as sent, failed or due again. A second storage would claim with
// `FOR UPDATE SKIP LOCKED`; here SQLite's single writer serialises the claim.
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import { NOTIFICATION_INSERT, notificationValues, WAIT_GRACE_MS } from '../rows.js';
import { limited } from './limited.js';
import { createWaitingStore } from './waiting.js';
import type { AlertEvent, NotificationStatus } from '../../../api/schemas/index.js';
import type {
  AlertChange,
  AlertRow,
  AttemptOutcome,
  DeliveryStats,
  NewNotification,
  NotificationQuery,
  NotificationRow,
  OutboxBacklog,
} from '../types.js';

const ALERT_COLUMNS = `id, check_id AS checkId, incident_id AS incidentId, opened_at AS openedAt,
  resolved_at AS resolvedAt, acknowledged_at AS acknowledgedAt, reminders_sent AS remindersSent,
  last_notified_at AS lastNotifiedAt`;
const NOTIFICATION_COLUMNS = `n.id, n.account_id AS accountId, n.channel_id AS channelId, n.check_id AS checkId,
  n.alert_id AS alertId, n.event, n.status, n.payload, n.attempts, n.last_error AS lastError,
  n.created_at AS createdAt, n.next_attempt_at AS nextAttemptAt, n.sent_at AS sentAt,
  n.waiting_on AS waitingOn, n.group_until AS groupUntil, c.name AS channelName, c.type AS channelType`;
const FROM_NOTIFICATIONS = 'FROM alert_notifications n JOIN channels c ON c.id = n.channel_id';
// A check's notices reach a channel in the order they were written: none is claimed while an
// earlier one of that check to that channel is pending (waiting, grouped, retried or under
// way), or a recovery (a degraded-end) could overtake its failure (its warning) and leave the
// receiver, a person or a PagerDuty incident, believing the check failing. A location's
// outage (its page and its recovery, notices of no check) keeps its order the same way.
const NOT_AFTER_PENDING = `NOT EXISTS (SELECT 1 FROM alert_notifications e WHERE e.account_id = n.account_id
    AND e.check_id = n.check_id AND e.channel_id = n.channel_id AND e.status = 'pending' AND e.rowid < n.rowid)
  AND (n.check_id IS NOT NULL OR NOT EXISTS (SELECT 1 FROM alert_notifications e WHERE e.status = 'pending'
    AND e.account_id = n.account_id AND e.check_id IS NULL AND e.channel_id = n.channel_id AND e.rowid < n.rowid
    AND json_extract(e.payload, '$.outageId') = json_extract(n.payload, '$.outageId')))`;
/** Claimable now (parameters: now, now, now less the wait's grace), in the order above. */
const DUE = `status = 'pending' AND next_attempt_at <= ? AND (lease_until IS NULL OR lease_until <= ?)
  AND (waiting_on IS NULL OR next_attempt_at <= ?) AND ${NOT_AFTER_PENDING}`;

type DueRow = { id: string; channelId: number; event: string; groupUntil: number | null };
type RawNotification = Omit<NotificationRow, 'payload'> & { payload: string };
const toNotification = (r: RawNotification): NotificationRow => ({
  ...r,
  payload: JSON.parse(r.payload) as Record<string, unknown>,
});

export function createAlertStore(db: Database.Database) {
  // Who leases here: this open of the file (one instance per file); another holder is gone.
  const self = randomUUID();
  const claimHoldPage = db.prepare(
    `INSERT INTO hold_pages (kind, account_id, hold_id, ends_at, check_id) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT DO NOTHING`,
  );
  const OTHERS = `status = 'pending' AND lease_until IS NOT NULL AND coalesce(lease_holder, '') != ?`;
  const othersLeased = db.prepare(`SELECT 1 FROM alert_notifications WHERE ${OTHERS} LIMIT 1`);
  const releaseOthers = db.prepare(
    `UPDATE alert_notifications SET lease_until = NULL, lease_holder = NULL WHERE ${OTHERS}`,
  );
  const insertAlert = db.prepare(
    `INSERT INTO check_alerts (id, account_id, check_id, incident_id, opened_at, last_notified_at)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const resolve = db.prepare('UPDATE check_alerts SET resolved_at = ? WHERE id = ? AND resolved_at IS NULL');
  const remind = db.prepare(
    `UPDATE check_alerts SET reminders_sent = reminders_sent + 1, last_notified_at = ?
     WHERE id = ? AND (? IS NULL OR reminders_sent = ?)`,
  );
  const openOf = db.prepare(
    `SELECT ${ALERT_COLUMNS} FROM check_alerts WHERE account_id = ? AND check_id = ? AND resolved_at IS NULL
     ORDER BY opened_at DESC LIMIT 1`,
  );
  const remindable = db.prepare(
    `SELECT ${ALERT_COLUMNS}, account_id AS accountId FROM check_alerts
     WHERE resolved_at IS NULL AND acknowledged_at IS NULL`,
  );
  const open = db.prepare(
    `SELECT ${ALERT_COLUMNS}, account_id AS accountId FROM check_alerts WHERE resolved_at IS NULL`,
  );
  const ack = db.prepare(
    'UPDATE check_alerts SET acknowledged_at = coalesce(acknowledged_at, ?) WHERE id = ? AND account_id = ?',
  );
  const alertById = db.prepare(`SELECT ${ALERT_COLUMNS} FROM check_alerts WHERE id = ? AND account_id = ?`);
  const notices = db.prepare(
    'SELECT channel_id AS channelId, event, status FROM alert_notifications WHERE alert_id = ? ORDER BY created_at',
  );
  const lastNotice = db.prepare(
    `SELECT max(created_at) AS at FROM alert_notifications
     WHERE account_id = ? AND check_id = ? AND channel_id = ? AND event = ? AND status != 'suppressed'`,
  );
  const insertNotification = db.prepare(
    `${NOTIFICATION_INSERT} VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const due = limited(
    db,
    (limit) =>
      `SELECT id, channel_id AS channelId, event, group_until AS groupUntil FROM alert_notifications n
       WHERE ${DUE} ORDER BY next_attempt_at LIMIT ${limit}`,
  );
  const withGroupMates = groupMatesOf(db);
  const lease = db.prepare(
    `UPDATE alert_notifications SET lease_until = ?, lease_holder = '${self}', attempts = attempts + 1
     WHERE id = ? AND status = 'pending' AND (lease_until IS NULL OR lease_until <= ?)`,
  );
  const backlog = db.prepare(
    "SELECT count(*) AS pending, min(created_at) AS oldestAt FROM alert_notifications WHERE status = 'pending'",
  );
  const byId = db.prepare(`SELECT ${NOTIFICATION_COLUMNS} ${FROM_NOTIFICATIONS} WHERE n.id = ?`);
  const finish = db.prepare(
    `UPDATE alert_notifications SET status = ?, last_error = ?, next_attempt_at = ?, sent_at = ?, lease_until = NULL,
       lease_holder = NULL WHERE id = ?`,
  );

  const insertThreshold = db.prepare(
    `INSERT OR IGNORE INTO certificate_notices (account_id, check_id, certificate, threshold, at) VALUES (?, ?, ?, ?, ?)`,
  );
  const thresholdsSent = db.prepare(
    'SELECT threshold FROM certificate_notices WHERE account_id = ? AND check_id = ? AND certificate = ?',
  );

  function enqueue(accountId: string, n: NewNotification, now: number) {
    insertNotification.run(...notificationValues(accountId, n, now));
  }

  function writeChange(accountId: string, change: AlertChange) {
    const h = change.holdEnd;
    // Paged for this end already (another start, before a kill): nothing more.
    if (h && claimHoldPage.run(h.kind, accountId, h.holdId, h.endsAt, change.checkId).changes === 0) return;
    const a = change.openAlert;
    if (a) insertAlert.run(a.id, accountId, a.checkId, a.incidentId, a.openedAt, a.lastNotifiedAt);
    if (change.resolveAlert) resolve.run(change.at, change.resolveAlert);
    if (change.remindAlert) {
      const seen = change.remindersSent ?? null;
      // Another sweep counted this reminder first: it sends it, not this one.
      if (remind.run(change.at, change.remindAlert, seen, seen).changes === 0) return;
    }
    let notifications = change.notifications;
    const cert = change.certificateNotice;
    if (cert) {
      let recorded = 0;
      for (const t of cert.thresholds)
        recorded += insertThreshold.run(accountId, change.checkId, cert.key, t, change.at).changes;
      // Another instance recorded one of them first: it sends them, not this one.
      if (recorded < cert.thresholds.length)
        notifications = notifications.filter((n) => n.event !== 'certificate');
    }
    for (const n of notifications) enqueue(accountId, n, change.at);
  }

  const claim = db.transaction(
    (now: number, leaseMs: number, limit: number, skip: readonly number[]): NotificationRow[] => {
      const skipped = new Set(skip);
      const dueAt = [now, now, now - WAIT_GRACE_MS];
      // Read a few more than asked: some may belong to busy channels.
      const rows = (due.all(limit * 4, ...dueAt) as DueRow[])
        .filter((r) => !skipped.has(r.channelId))
        .slice(0, limit);
      return withGroupMates(rows, dueAt)
        .filter((id) => lease.run(now + leaseMs, id, now).changes === 1)
        .map((id) => toNotification(byId.get(id) as RawNotification));
    },
  );
  const claimOne = db.transaction((id: string, now: number, leaseMs: number): NotificationRow | null =>
    lease.run(now + leaseMs, id, now).changes === 1 ? toNotification(byId.get(id) as RawNotification) : null,
  );

  return {
    writeChange,
    openAlert: (accountId: string, checkId: string) =>
      (openOf.get(accountId, checkId) as AlertRow | undefined) ?? null,
    remindableAlerts: () => remindable.all() as Array<AlertRow & { accountId: string }>,
    openAlerts: () => open.all() as Array<AlertRow & { accountId: string }>,
    acknowledgeAlert(accountId: string, alertId: string, at: number): AlertRow | null {
      ack.run(at, alertId, accountId);
      return (alertById.get(alertId, accountId) as AlertRow | undefined) ?? null;
    },
    alertNotices: (alertId: string) =>
      notices.all(alertId) as Array<{ channelId: number; event: AlertEvent; status: NotificationStatus }>,
    lastNoticeAt: (accountId: string, checkId: string, channelId: number, event: AlertEvent) =>
      (lastNotice.get(accountId, checkId, channelId, event) as { at: number | null }).at,
    certificateThresholdsSent: (accountId: string, checkId: string, key: string) =>
      (thresholdsSent.all(accountId, checkId, key) as Array<{ threshold: number }>).map((r) => r.threshold),
    enqueueNotification: enqueue,
    ...createWaitingStore(db),
    // The outbox is looked at every 2 s and after each change, and is nearly always
    // empty: a read first, so an empty look takes no write lock (it would wait for the
    // run queue's writer thread, sqlite/write-thread.ts, with the main thread asleep).
    claimNotifications: (now: number, leaseMs: number, limit: number, skip: readonly number[]) =>
      due.get(1, now, now, now - WAIT_GRACE_MS) === undefined
        ? []
        : claim.immediate(now, leaseMs, limit, skip),
    claimNotification: (id: string, now: number, leaseMs: number) => claimOne.immediate(id, now, leaseMs),
    // Read first, as claimNotifications: a look that finds nothing takes no write lock.
    releaseOrphanedLeases: () => (othersLeased.get(self) === undefined ? 0 : releaseOthers.run(self).changes),
    finishAttempt(id: string, outcome: AttemptOutcome, now: number) {
      const error = outcome.status === 'sent' ? null : outcome.error;
      const next = outcome.status === 'pending' ? outcome.nextAttemptAt : null;
      finish.run(outcome.status, error, next, outcome.status === 'sent' ? now : null, id);
    },
    notification: (id: string) => {
      const row = byId.get(id) as RawNotification | undefined;
      return row ? toNotification(row) : null;
    },
    listNotifications: (q: NotificationQuery) => listNotifications(db, q),
    outboxBacklog: () => backlog.get() as OutboxBacklog,
    deliveryStats: (accountId: string, channelIds: readonly number[], since: number) =>
      deliveryStats(db, accountId, channelIds, since),
  };
}

/**
 * The ids of the rows a claim takes with the rest of each group one of them is in (grouping.ts):
 * a group is one message, however many rows it has, not one per claim's worth of them.
 */
function groupMatesOf(db: Database.Database) {
  const mates = db.prepare(
    `SELECT id FROM alert_notifications n WHERE channel_id = ? AND event = ? AND group_until = ? AND ${DUE}
     ORDER BY next_attempt_at`,
  );
  return (rows: readonly DueRow[], dueAt: readonly number[]): string[] => {
    const ids = new Set(rows.map((r) => r.id));
    for (const r of rows) {
      if (r.groupUntil === null) continue;
      const found = mates.all(r.channelId, r.event, r.groupUntil, ...dueAt) as Array<{ id: string }>;
      for (const m of found) ids.add(m.id);
    }
    return [...ids];
  };
}

function listNotifications(db: Database.Database, q: NotificationQuery) {
  const where = ['n.account_id = ?', 'n.created_at >= ?', 'n.created_at <= ?'];
  const params: Array<string | number> = [q.accountId, q.from, q.to];
  const filter = (clause: string, value: string | number | undefined) => {
    if (value === undefined) return;
    where.push(clause);
    params.push(value);
  };
  filter('n.check_id = ?', q.checkId);
  filter('n.channel_id = ?', q.channelId);
  filter('n.status = ?', q.status);
  const sql = where.join(' AND ');
  const { total } = db
    .prepare(`SELECT count(*) AS total ${FROM_NOTIFICATIONS} WHERE ${sql}`)
    .get(...params) as {
    total: number;
  };
  const rows = db
    .prepare(
      `SELECT ${NOTIFICATION_COLUMNS} ${FROM_NOTIFICATIONS} WHERE ${sql}
       ORDER BY n.created_at DESC, n.rowid DESC LIMIT ? OFFSET ?`,
    )
    .all(...params, q.limit, q.offset) as RawNotification[];
  return { items: rows.map(toNotification), total };
}

function deliveryStats(
  db: Database.Database,
  accountId: string,
  channelIds: readonly number[],
  since: number,
): Map<number, DeliveryStats> {
  const last = db.prepare(
    `SELECT id, event, status, coalesce(sent_at, created_at) AS at FROM alert_notifications
     WHERE account_id = ? AND channel_id = ? ORDER BY created_at DESC, rowid DESC LIMIT 1`,
  );
  const failures = db.prepare(
    `SELECT count(*) AS n FROM alert_notifications
     WHERE account_id = ? AND channel_id = ? AND status = 'failed' AND created_at >= ?`,
  );
  const out = new Map<number, DeliveryStats>();
  for (const id of channelIds) {
    const row = last.get(accountId, id) as DeliveryStats['last'] | undefined;
    out.set(id, { last: row ?? null, failures: (failures.get(accountId, id, since) as { n: number }).n });
  }
  return out;
}
