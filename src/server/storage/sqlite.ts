// SQLite storage through better-sqlite3: WAL, foreign keys, migrations.
// The only module tree that writes SQL.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { migrate } from './schema.js';
import { createAccountStore } from './sqlite-account.js';
import { createResultStore } from './sqlite-results.js';
import type { Storage } from './types.js';

export function openSqliteStorage(path: string): Storage {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  // NORMAL under WAL: a committed transaction survives a killed process;
  // only an OS crash may lose the last ones.
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db);
  const pruneResults = db.prepare('DELETE FROM results WHERE started_at < ?');
  const pruneAlerts = db.prepare('DELETE FROM alert_events WHERE at < ?');
  return {
    ...createResultStore(db),
    ...createAccountStore(db),
    prune(before: number): number {
      pruneAlerts.run(before);
      return pruneResults.run(before).changes;
    },
    close: () => db.close(),
  };
}
