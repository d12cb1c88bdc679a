// Reading the outbox on PostgreSQL: one notification, a page of them, and each
// channel's last delivery with its recent failures.
import type pg from 'pg';
import type { AlertEvent, NotificationStatus } from '../../../api/schemas/index.js';
import { first, rows } from './db.js';
import type { DeliveryStats, NotificationRow, OutboxBacklog, Storage } from '../types.js';

export const NOTIFICATION_COLUMNS = `n.id, n.account_id AS "accountId", n.channel_id AS "channelId",
  n.check_id AS "checkId", n.alert_id AS "alertId", n.event, n.status, n.payload, n.attempts,
  n.last_error AS "lastError", n.created_at AS "createdAt", n.next_attempt_at AS "nextAttemptAt",
  n.sent_at AS "sentAt", n.waiting_on AS "waitingOn", n.group_until AS "groupUntil", c.name AS "channelName", c.type AS "channelType"`;
export const JOIN_CHANNELS = 'JOIN channels c ON c.id = n.channel_id';

type OutboxStore = Pick<Storage, 'notification' | 'listNotifications' | 'deliveryStats' | 'outboxBacklog'>;

export function createPgOutboxReader(pool: pg.Pool): OutboxStore {
  return {
    async notification(id) {
      const row = await first<NotificationRow>(
        pool,
        `SELECT ${NOTIFICATION_COLUMNS} FROM alert_notifications n ${JOIN_CHANNELS} WHERE n.id = $1`,
        [id],
      );
      return row ?? null;
    },

    async outboxBacklog() {
      const row = await first<OutboxBacklog>(
        pool,
        `SELECT count(*) AS pending, min(created_at) AS "oldestAt"
         FROM alert_notifications WHERE status = 'pending'`,
      );
      return row ?? { pending: 0, oldestAt: null };
    },

    async listNotifications(q) {
      const params: unknown[] = [q.accountId, q.from, q.to];
      const where = ['n.account_id = $1', 'n.created_at >= $2', 'n.created_at <= $3'];
      const filter = (column: string, value: string | number | undefined) => {
        if (value === undefined) return;
        params.push(value);
        where.push(`${column} = $${params.length}`);
      };
      filter('n.check_id', q.checkId);
      filter('n.channel_id', q.channelId);
      filter('n.status', q.status);
      const sql = `FROM alert_notifications n ${JOIN_CHANNELS} WHERE ${where.join(' AND ')}`;
      const total = (await first<{ n: number }>(pool, `SELECT count(*) AS n ${sql}`, params))!.n;
      const items = await rows<NotificationRow>(
        pool,
        `SELECT ${NOTIFICATION_COLUMNS} ${sql} ORDER BY n.created_at DESC, n.seq DESC
         LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
        [...params, q.limit, q.offset],
      );
      return { items, total };
    },

    async deliveryStats(accountId, channelIds, since) {
      const ids = [...channelIds];
      const last = await rows<{ channelId: number } & NonNullable<DeliveryStats['last']>>(
        pool,
        `SELECT DISTINCT ON (channel_id) channel_id AS "channelId", id, event, status,
           coalesce(sent_at, created_at) AS at
         FROM alert_notifications WHERE account_id = $1 AND channel_id = ANY($2::int[])
         ORDER BY channel_id, created_at DESC, seq DESC`,
        [accountId, ids],
      );
      const failures = await rows<{ channelId: number; n: number }>(
        pool,
        `SELECT channel_id AS "channelId", count(*) AS n FROM alert_notifications
         WHERE account_id = $1 AND channel_id = ANY($2::int[]) AND status = 'failed' AND created_at >= $3
         GROUP BY channel_id`,
        [accountId, ids, since],
      );
      const out = new Map<number, DeliveryStats>();
      for (const id of ids) {
        const row = last.find((r) => r.channelId === id);
        out.set(id, {
          last: row
            ? {
                id: row.id,
                event: row.event as AlertEvent,
                status: row.status as NotificationStatus,
                at: row.at,
              }
            : null,
          failures: failures.find((r) => r.channelId === id)?.n ?? 0,
        });
      }
      return out;
    },
  };
}
