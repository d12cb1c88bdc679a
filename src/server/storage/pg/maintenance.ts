// Maintenance windows (docs/maintenance.md), kept whole as JSON and shared by every instance,
// and the ends already paged for: the insert that wins is the one page.
import type pg from 'pg';
import { changed, rows } from './db.js';
import type { Storage, StoredWindow } from '../types.js';

type MaintenanceStore = Pick<
  Storage,
  'saveMaintenanceWindow' | 'deleteMaintenanceWindow' | 'maintenanceWindows' | 'claimMaintenanceEnd'
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
    claimMaintenanceEnd: async (accountId, windowId, endsAt) =>
      (await changed(
        pool,
        `INSERT INTO maintenance_ends (account_id, window_id, ends_at) VALUES ($1, $2, $3)
         ON CONFLICT DO NOTHING`,
        [accountId, windowId, endsAt],
      )) > 0,
  };
}
