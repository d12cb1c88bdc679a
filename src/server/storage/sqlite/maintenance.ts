// Maintenance windows (docs/maintenance.md), kept whole as JSON, and the ends already paged for.
import type Database from 'better-sqlite3';
import type { Sync } from '../promised.js';
import type { Storage, StoredWindow } from '../types.js';

type MaintenanceStore = Pick<
  Sync<Storage>,
  'saveMaintenanceWindow' | 'deleteMaintenanceWindow' | 'maintenanceWindows' | 'claimMaintenanceEnd'
>;

export function createMaintenanceStore(db: Database.Database): MaintenanceStore {
  const save = db.prepare(
    `INSERT INTO maintenance_windows (account_id, id, data) VALUES (?, ?, ?)
     ON CONFLICT (account_id, id) DO UPDATE SET data = excluded.data`,
  );
  const remove = db.prepare('DELETE FROM maintenance_windows WHERE account_id = ? AND id = ?');
  const all = db.prepare('SELECT data FROM maintenance_windows');
  const claim = db.prepare(
    'INSERT INTO maintenance_ends (account_id, window_id, ends_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
  );
  return {
    saveMaintenanceWindow(w) {
      save.run(w.accountId, w.id, JSON.stringify(w));
    },
    deleteMaintenanceWindow: (accountId, id) => remove.run(accountId, id).changes > 0,
    maintenanceWindows: () =>
      (all.all() as Array<{ data: string }>).map((r) => JSON.parse(r.data) as StoredWindow),
    claimMaintenanceEnd: (accountId, windowId, endsAt) => claim.run(accountId, windowId, endsAt).changes > 0,
  };
}
