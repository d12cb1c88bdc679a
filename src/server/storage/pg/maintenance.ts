// Maintenance windows (docs/maintenance.md), kept whole as JSON and shared by every instance,
// and how far every instance paged for hold ends (the claims are pg/alerts.ts's).
import type pg from 'pg';
import { changed, first, rows } from './db.js';
import type { Storage, StoredWindow } from '../types.js';

type MaintenanceStore = Pick<
  Storage,
  | 'saveMaintenanceWindow'
  | 'deleteMaintenanceWindow'
  | 'maintenanceWindows'
  | 'holdEndsProcessed'
  | 'markHoldEndsProcessed'
>;

export function createPgMaintenanceStore(pool: pg.Pool): MaintenanceStore {
  return {
    async saveMaintenanceWindow(w) {
      await pool.query(
        `INSERT INTO maintenance_windows (account_id, id, data) VALUES ($1, $2, $3)
         ON CONFLICT (account_id, id) DO UPDATE SET data = excluded.data`,
        [w.accountId, w.id, JSON.stringify(w)],
      );
    },
    deleteMaintenanceWindow: async (accountId, id) =>
      (await changed(pool, 'DELETE FROM maintenance_windows WHERE account_id = $1 AND id = $2', [
        accountId,
        id,
      ])) > 0,
    maintenanceWindows: async () =>
      (await rows<{ data: StoredWindow }>(pool, 'SELECT data FROM maintenance_windows')).map((r) => r.data),
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
