// Alerts and the outbox of their notifications, on PostgreSQL: the semantics of
// sqlite/alerts.ts, with the claim under `FOR UPDATE SKIP LOCKED`, so instances
// sharing the database never lease one notification twice: each is delivered by one.
import type pg from 'pg';
import type { AlertEvent, NotificationStatus } from '../../../api/schemas/index.js';
import { endIncident, insertIncident } from './account.js';
import { notifyChange } from './changes.js';
import { changed, first, rows, transaction, type Queryable } from './db.js';
import { perKey } from './per-key.js';
import { JOIN_CHANNELS, NOTIFICATION_COLUMNS } from './outbox.js';
import { INSTANCE_LOCK } from './changes.js';
import { NOTIFICATION_INSERT, notificationValues, WAIT_GRACE_MS } from '../rows.js';
import { createPgWaitingStore } from './waiting.js';
import type { AlertChange, AlertRow, NewNotification, NotificationRow, Storage } from '../types.js';

const ALERT_COLUMNS = `id, check_id AS "checkId", incident_id AS "incidentId", opened_at AS "openedAt",
  resolved_at AS "resolvedAt", acknowledged_at AS "acknowledgedAt", reminders_sent AS "remindersSent",
  last_notified_at AS "lastNotifiedAt"`;
const CLAIMABLE = `status = 'pending' AND (lease_until IS NULL OR lease_until <= $1)`;

export async function enqueue(
  q: Queryable,
  accountId: string,
  n: NewNotification,
  now: number,
): Promise<void> {
  await q.query(`${NOTIFICATION_INSERT} VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`, [
    ...notificationValues(accountId, n, now),
  ]);
}

/**
 * Leases the rows `picked` selects (a CTE with $1 = now, $2 = lease end, $5 = the holder)
 * and reads them whole.
 */
const leaseAndRead = (picked: string) => `
  WITH picked AS (${picked}),
  leased AS (
    UPDATE alert_notifications n SET lease_until = $2, lease_holder = $5, attempts = attempts + 1
    FROM picked WHERE n.id = picked.id RETURNING n.*)
  SELECT ${NOTIFICATION_COLUMNS} FROM leased n ${JOIN_CHANNELS} ORDER BY n.next_attempt_at, n.seq`;

// Claimable now ($1): due, its wait over, and no earlier notice of its check (or outage) to its
// channel pending: a check's notices reach a channel in the order they were written
// (sqlite/alerts.ts, NOT_AFTER_PENDING).
const DUE = `${CLAIMABLE} AND next_attempt_at <= $1 AND (waiting_on IS NULL OR next_attempt_at <= $1 - ${WAIT_GRACE_MS})
  AND NOT EXISTS (SELECT 1 FROM alert_notifications e WHERE e.account_id = n.account_id
    AND e.check_id = n.check_id AND e.channel_id = n.channel_id AND e.status = 'pending' AND e.seq < n.seq)
  AND (n.check_id IS NOT NULL OR NOT EXISTS (SELECT 1 FROM alert_notifications e WHERE e.status = 'pending'
    AND e.account_id = n.account_id AND e.check_id IS NULL AND e.channel_id = n.channel_id AND e.seq < n.seq
    AND e.payload->>'outageId' = n.payload->>'outageId'))`;

// The due rows, then the rest of each group one of them is in (grouping.ts): a group is one
// message, however many rows it has, not one per claim's worth of them.
const CLAIM_DUE = leaseAndRead(
  `WITH first AS (
     SELECT id, channel_id, event, group_until FROM alert_notifications n
     WHERE ${DUE} AND NOT (channel_id = ANY($4::int[]))
     ORDER BY next_attempt_at, seq LIMIT $3 FOR UPDATE OF n SKIP LOCKED),
   mates AS (
     SELECT n.id FROM alert_notifications n
     JOIN (SELECT DISTINCT channel_id, event, group_until FROM first WHERE group_until IS NOT NULL) g
       ON g.channel_id = n.channel_id AND g.event = n.event AND g.group_until = n.group_until
     WHERE ${DUE} AND n.id NOT IN (SELECT id FROM first)
     FOR UPDATE OF n SKIP LOCKED)
   SELECT id FROM first UNION ALL SELECT id FROM mates`,
);
const CLAIM_ONE = leaseAndRead(
  `SELECT id FROM alert_notifications WHERE id = $3 AND $4::int IS NULL AND ${CLAIMABLE} FOR UPDATE`,
);

// The lease of a holder whose session lock (pg/changes.ts) this statement can take: that
// session is gone, and so is its process; the lock goes with the statement's transaction.
const RELEASE_ORPHANED = `UPDATE alert_notifications SET lease_until = NULL, lease_holder = NULL
  WHERE status = 'pending' AND lease_until IS NOT NULL AND lease_holder IS NOT NULL AND lease_holder <> $1
    AND pg_try_advisory_xact_lock(${INSTANCE_LOCK}, hashtext(lease_holder))`;

type AlertStore = Pick<
  Storage,
  | 'applyAlertChange'
  | 'openAlert'
  | 'remindableAlerts'
  | 'openAlerts'
  | 'acknowledgeAlert'
  | 'alertNotices'
  | 'lastNoticeAt'
  | 'certificateThresholdsSent'
  | 'enqueueNotification'
  | 'waitingNotifications'
  | 'settleWaiting'
  | 'claimNotifications'
  | 'claimNotification'
  | 'releaseOrphanedLeases'
  | 'finishAttempt'
>;

export function createPgAlertStore(pool: pg.Pool, origin: string): AlertStore {
  // Read for every status (status/inputs.ts): one statement for the calls of a moment (pg/per-key.ts).
  const open = perKey<[string, string], AlertRow>(
    pool,
    ['text', 'text'],
    `SELECT ${ALERT_COLUMNS} FROM check_alerts WHERE account_id = k.p1 AND check_id = k.p2 AND resolved_at IS NULL
     ORDER BY opened_at DESC LIMIT 1`,
  );
  type Notice = { channelId: number; event: AlertEvent; status: NotificationStatus };
  const notices = perKey<[string], Notice & { created_at: number; seq: number }>(
    pool,
    ['text'],
    `SELECT channel_id AS "channelId", event, status, created_at, seq FROM alert_notifications
     WHERE alert_id = k.p1`,
    'r.created_at, r.seq',
  );
  /** The incident, the alert and the outbox rows of one status change: all or nothing. */
  const applyAlertChange = (accountId: string, change: AlertChange) =>
    transaction(pool, async (c) => {
      const h = change.holdEnd;
      // Paged for this end already (another instance, or a start before a kill): nothing more.
      if (h) {
        const claimed = await c.query(
          `INSERT INTO hold_pages (kind, account_id, hold_id, ends_at, check_id) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT DO NOTHING`,
          [h.kind, accountId, h.holdId, h.endsAt, change.checkId],
        );
        if (claimed.rowCount === 0) return;
      }
      if (change.openIncident) await insertIncident(c, accountId, change.openIncident);
      if (change.closeIncidentAt !== undefined)
        await endIncident(c, accountId, change.checkId, change.closeIncidentAt);
      const a = change.openAlert;
      if (a)
        await c.query(
          `INSERT INTO check_alerts (id, account_id, check_id, incident_id, opened_at, last_notified_at)
           VALUES ($1, $2, $3, $4, $5, $6)`,
          [a.id, accountId, a.checkId, a.incidentId, a.openedAt, a.lastNotifiedAt],
        );
      if (change.resolveAlert)
        await c.query('UPDATE check_alerts SET resolved_at = $1 WHERE id = $2 AND resolved_at IS NULL', [
          change.at,
          change.resolveAlert,
        ]);
      if (change.remindAlert) {
        const counted = await c.query(
          `UPDATE check_alerts SET reminders_sent = reminders_sent + 1, last_notified_at = $1
           WHERE id = $2 AND ($3::int IS NULL OR reminders_sent = $3)`,
          [change.at, change.remindAlert, change.remindersSent ?? null],
        );
        // Another instance counted this reminder first: it sends it, not this one.
        if (counted.rowCount === 0) return;
      }
      let notifications = change.notifications;
      const cert = change.certificateNotice;
      if (cert) {
        const recorded = await c.query(
          `INSERT INTO certificate_notices (account_id, check_id, certificate, threshold, at)
           SELECT $1, $2, $3, t, $5 FROM unnest($4::int[]) AS t ON CONFLICT DO NOTHING`,
          [accountId, change.checkId, cert.key, cert.thresholds, change.at],
        );
        // Another instance recorded one of them first: it sends them, not this one.
        if ((recorded.rowCount ?? 0) < cert.thresholds.length)
          notifications = notifications.filter((n) => n.event !== 'certificate');
      }
      for (const n of notifications) await enqueue(c, accountId, n, change.at);
      if (a || change.resolveAlert || change.remindAlert)
        await notifyChange(c, origin, { kind: 'alert', accountId, checkId: change.checkId });
    });

  return {
    applyAlertChange,
    openAlert: async (accountId, checkId) => (await open(accountId, checkId))[0] ?? null,
    certificateThresholdsSent: async (accountId, checkId, key) =>
      (
        await rows<{ threshold: number }>(
          pool,
          'SELECT threshold FROM certificate_notices WHERE account_id = $1 AND check_id = $2 AND certificate = $3',
          [accountId, checkId, key],
        )
      ).map((r) => r.threshold),
    remindableAlerts: () =>
      rows<AlertRow & { accountId: string }>(
        pool,
        `SELECT ${ALERT_COLUMNS}, account_id AS "accountId" FROM check_alerts
         WHERE resolved_at IS NULL AND acknowledged_at IS NULL`,
      ),
    openAlerts: () =>
      rows<AlertRow & { accountId: string }>(
        pool,
        `SELECT ${ALERT_COLUMNS}, account_id AS "accountId" FROM check_alerts WHERE resolved_at IS NULL`,
      ),
    acknowledgeAlert: (accountId, alertId, at) =>
      transaction(pool, async (c) => {
        const row = await first<AlertRow>(
          c,
          `UPDATE check_alerts SET acknowledged_at = coalesce(acknowledged_at, $1) WHERE id = $2 AND account_id = $3
           RETURNING ${ALERT_COLUMNS}`,
          [at, alertId, accountId],
        );
        if (row) await notifyChange(c, origin, { kind: 'alert', accountId, checkId: row.checkId });
        return row ?? null;
      }),
    alertNotices: async (alertId) =>
      (await notices(alertId)).map(({ channelId, event, status }): Notice => ({ channelId, event, status })),
    async lastNoticeAt(accountId, checkId, channelId, event) {
      const row = await first<{ at: number | null }>(
        pool,
        `SELECT max(created_at) AS at FROM alert_notifications
         WHERE account_id = $1 AND check_id = $2 AND channel_id = $3 AND event = $4 AND status != 'suppressed'`,
        [accountId, checkId, channelId, event],
      );
      return row?.at ?? null;
    },
    enqueueNotification: (accountId, notification, now) => enqueue(pool, accountId, notification, now),
    ...createPgWaitingStore(pool),
    claimNotifications: (now, leaseMs, limit, skipChannels) =>
      rows<NotificationRow>(pool, CLAIM_DUE, [now, now + leaseMs, limit, skipChannels, origin]),
    async claimNotification(id, now, leaseMs) {
      return (await first<NotificationRow>(pool, CLAIM_ONE, [now, now + leaseMs, id, null, origin])) ?? null;
    },
    releaseOrphanedLeases: () => changed(pool, RELEASE_ORPHANED, [origin]),
    async finishAttempt(id, outcome, now) {
      const error = outcome.status === 'sent' ? null : outcome.error;
      const next = outcome.status === 'pending' ? outcome.nextAttemptAt : null;
      await pool.query(
        `UPDATE alert_notifications SET status = $1, last_error = $2, next_attempt_at = $3, sent_at = $4,
           lease_until = NULL, lease_holder = NULL WHERE id = $5`,
        [outcome.status, error, next, outcome.status === 'sent' ? now : null, id],
      );
    },
  };
}
