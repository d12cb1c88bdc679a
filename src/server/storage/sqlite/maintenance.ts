// Maintenance windows (docs/maintenance.md), kept whole as JSON, and how far hold ends were paged for.
import type Database from 'better-sqlite3';
import type { Sync } from '../promised.js';
import type { Storage, StoredWindow } from '../types.js';

type MaintenanceStore = Pick<
  Sync<Storage>,
  | 'saveMaintenanceWindow'
  | 'deleteMaintenanceWindow'
  | 'maintenanceWindows'
  | 'holdEndsProcessed'
  | 'markHoldEndsProcessed'
>;

export function createMaintenanceStore(db: Database.Database): MaintenanceStore {
  const save = db.prepare(
    `INSERT INTO maintenance_windows (account_id, id, data) VALUES (?, ?, ?)
     ON CONFLICT (account_id, id) DO UPDATE SET data = excluded.data`,
  );
  const remove = db.prepare('DELETE FROM maintenance_windows WHERE account_id = ? AND id = ?');
  const all = db.prepare('SELECT data FROM maintenance_windows');
  const processed = db.prepare('SELECT up_to AS upTo FROM hold_ends_processed WHERE kind = ?');
  const mark = db.prepare(
    `INSERT INTO hold_ends_processed (kind, up_to) VALUES (?, ?)
     ON CONFLICT (kind) DO UPDATE SET up_to = max(up_to, excluded.up_to)`,
  );
  return {
    saveMaintenanceWindow(w) {
      save.run(w.accountId, w.id, JSON.stringify(w));
    },
    deleteMaintenanceWindow: (accountId, id) => remove.run(accountId, id).changes > 0,
    maintenanceWindows: () =>
      (all.all() as Array<{ data: string }>).map((r) => JSON.parse(r.data) as StoredWindow),
    holdEndsProcessed: (kind) => (processed.get(kind) as { upTo: number } | undefined)?.upTo ?? null,
    markHoldEndsProcessed(kind, upTo) {
      mark.run(kind, upTo);
    },
  };
}
