// Location outages (storage/outages-store.ts) on PostgreSQL, shared by every instance: the
// partial unique index keeps one open per location, whichever instance declares first.
import type pg from 'pg';
import { enqueue } from './alerts.js';
import { rows, transaction } from './db.js';
import type { OutageRow, Storage } from '../types.js';

type OutageStore = Pick<Storage, 'declareOutage' | 'endOutage' | 'liveOutages' | 'markOutageEndPaged'>;

const COLUMNS = `id, account_id AS "accountId", location_id AS "locationId", since,
  ended_at AS "endedAt", no_runner AS "noRunner", failing, total, end_paged AS "endPaged", channels`;

export function createPgOutageStore(pool: pg.Pool): OutageStore {
  return {
    declareOutage: (o, notifications, now) =>
      transaction(pool, async (c) => {
        const inserted = await c.query(
          `INSERT INTO location_outages (id, account_id, location_id, since, no_runner, failing, total, channels)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING`,
          [
            o.id,
            o.accountId,
            o.locationId,
            o.since,
            o.noRunner,
            o.failing,
            o.total,
            JSON.stringify(o.channels),
          ],
        );
        if (inserted.rowCount === 0) return false;
        for (const n of notifications) await enqueue(c, o.accountId, n, now);
        return true;
      }),
    endOutage: (accountId, id, endedAt, notifications) =>
      transaction(pool, async (c) => {
        const ended = await c.query(
          'UPDATE location_outages SET ended_at = $1 WHERE account_id = $2 AND id = $3 AND ended_at IS NULL',
          [endedAt, accountId, id],
        );
        if (ended.rowCount === 0) return false;
        for (const n of notifications) await enqueue(c, accountId, n, endedAt);
        return true;
      }),
    liveOutages: async () =>
      (
        await rows<OutageRow & { channels: string }>(
          pool,
          `SELECT ${COLUMNS} FROM location_outages WHERE ended_at IS NULL OR NOT end_paged`,
        )
      ).map((r) => ({ ...r, channels: JSON.parse(r.channels) as number[] })),
    async markOutageEndPaged(accountId, id) {
      await pool.query('UPDATE location_outages SET end_paged = true WHERE account_id = $1 AND id = $2', [
        accountId,
        id,
      ]);
    },
  };
}
