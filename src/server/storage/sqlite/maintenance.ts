// Maintenance windows (docs/maintenance.md), kept whole as JSON with the time each row last
// changed (deleted ones as tombstones), and how far hold ends were paged for.
import type Database from 'better-sqlite3';
import { windowEndBound } from '../../../domain/maintenance-end.js';
import type { Sync } from '../promised.js';
import type { Storage, StoredWindow } from '../types.js';

type MaintenanceStore = Pick<
  Sync<Storage>,
  | 'saveMaintenanceWindow'
  | 'deleteMaintenanceWindow'
  | 'maintenanceWindows'
  | 'maintenanceWindowChanges'
  | 'holdEndsProcessed'
  | 'markHoldEndsProcessed'
>;

interface ChangeRow {
  accountId: string;
  id: string;
  data: string;
  deleted: number;
}

export function createMaintenanceStore(db: Database.Database): MaintenanceStore {
  const save = db.prepare(
    `INSERT INTO maintenance_windows (account_id, id, data, updated_at, deleted, last_end)
     VALUES (?, ?, ?, ?, 0, ?)
     ON CONFLICT (account_id, id) DO UPDATE SET data = excluded.data, updated_at = excluded.updated_at,
       deleted = 0, last_end = excluded.last_end`,
  );
  const remove = db.prepare(
    'UPDATE maintenance_windows SET deleted = 1, updated_at = ? WHERE account_id = ? AND id = ? AND deleted = 0',
  );
  const all = db.prepare('SELECT data FROM maintenance_windows WHERE deleted = 0');
  const since = db.prepare(
    `SELECT account_id AS accountId, id, data, deleted FROM maintenance_windows WHERE updated_at >= ?`,
  );
  const processed = db.prepare('SELECT up_to AS upTo FROM hold_ends_processed WHERE kind = ?');
  const mark = db.prepare(
    `INSERT INTO hold_ends_processed (kind, up_to) VALUES (?, ?)
     ON CONFLICT (kind) DO UPDATE SET up_to = max(up_to, excluded.up_to)`,
  );
  return {
    saveMaintenanceWindow(w, at = Date.now()) {
      save.run(w.accountId, w.id, JSON.stringify(w), at, windowEndBound(w));
    },
    deleteMaintenanceWindow: (accountId, id, at = Date.now()) => remove.run(at, accountId, id).changes > 0,
    maintenanceWindows: () =>
      (all.all() as Array<{ data: string }>).map((r) => JSON.parse(r.data) as StoredWindow),
    maintenanceWindowChanges: (from) =>
      (since.all(from) as ChangeRow[]).map((r) => ({
        accountId: r.accountId,
        id: r.id,
        window: r.deleted ? null : (JSON.parse(r.data) as StoredWindow),
      })),
    holdEndsProcessed: (kind) => (processed.get(kind) as { upTo: number } | undefined)?.upTo ?? null,
    markHoldEndsProcessed(kind, upTo) {
      mark.run(kind, upTo);
    },
  };
}
