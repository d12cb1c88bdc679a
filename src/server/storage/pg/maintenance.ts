// Maintenance windows (docs/maintenance.md), kept whole as JSON and shared by every instance
// (with the time each row last changed; deleted ones as tombstones),
// and how far every instance paged for hold ends (the claims are pg/alerts.ts's).
import type pg from 'pg';
import { windowEndBound } from '../../../domain/maintenance-end.js';
import { changed, first, rows } from './db.js';
import type { Storage, StoredWindow } from '../types.js';

type MaintenanceStore = Pick<
  Storage,
  | 'saveMaintenanceWindow'
  | 'deleteMaintenanceWindow'
  | 'maintenanceWindows'
  | 'maintenanceWindowChanges'
  | 'holdEndsProcessed'
  | 'markHoldEndsProcessed'
>;

export function createPgMaintenanceStore(pool: pg.Pool): MaintenanceStore {
  return {
    async saveMaintenanceWindow(w, at = Date.now()) {
      await pool.query(
        `INSERT INTO maintenance_windows (account_id, id, data, updated_at, deleted, last_end)
         VALUES ($1, $2, $3, $4, false, $5)
         ON CONFLICT (account_id, id) DO UPDATE SET data = excluded.data,
           updated_at = excluded.updated_at, deleted = false, last_end = excluded.last_end`,
        [w.accountId, w.id, JSON.stringify(w), at, windowEndBound(w)],
      );
    },
    deleteMaintenanceWindow: async (accountId, id, at = Date.now()) =>
      (await changed(
        pool,
        `UPDATE maintenance_windows SET deleted = true, updated_at = $3
         WHERE account_id = $1 AND id = $2 AND NOT deleted`,
        [accountId, id, at],
      )) > 0,
    maintenanceWindows: async () =>
      (
        await rows<{ data: StoredWindow }>(pool, 'SELECT data FROM maintenance_windows WHERE NOT deleted')
      ).map((r) => r.data),
    maintenanceWindowChanges: async (since) =>
      (
        await rows<{ accountId: string; id: string; data: StoredWindow; deleted: boolean }>(
          pool,
          `SELECT account_id AS "accountId", id, data, deleted FROM maintenance_windows
           WHERE updated_at >= $1`,
          [since],
        )
      ).map((r) => ({ accountId: r.accountId, id: r.id, window: r.deleted ? null : r.data })),
    holdEndsProcessed: async (kind) =>
      (
        await first<{ upTo: number }>(
          pool,
          'SELECT up_to AS "upTo" FROM hold_ends_processed WHERE kind = $1',
          [kind],
        )
      )?.upTo ?? null,
    async markHoldEndsProcessed(kind, upTo) {
      await pool.query(
        `INSERT INTO hold_ends_processed (kind, up_to) VALUES ($1, $2)
         ON CONFLICT (kind) DO UPDATE SET up_to = greatest(hold_ends_processed.up_to, excluded.up_to)`,
        [kind, upTo],
      );
    },
  };
}
