// SQLite storage through better-sqlite3: WAL, foreign keys, migrations.
// The only module tree that writes SQL.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { migrate } from './schema.js';
import { createAccountStore } from './sqlite-account.js';
import { createResultStore } from './sqlite-results.js';
import { createScreenshotStore } from './sqlite-screenshots.js';
import type { Storage } from './types.js';

export class StorageError extends Error {
  override readonly name = 'StorageError';
}

export function openSqliteStorage(path: string): Storage {
  let db: Database.Database | undefined;
  try {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    db = new Database(path);
    db.pragma('journal_mode = WAL');
    // NORMAL under WAL: a committed transaction survives a killed process;
    // only an OS crash may lose the last ones.
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    migrate(db);
  } catch (error) {
    db?.close();
    throw new StorageError(`cannot open the database ${path}: ${(error as Error).message}`);
  }
  return withStores(db);
}

function withStores(db: Database.Database): Storage {
  const pruneResults = db.prepare('DELETE FROM results WHERE started_at < ?');
  const pruneScreenshots = db.prepare('DELETE FROM screenshots WHERE started_at < ?');
  const pruneAlerts = db.prepare('DELETE FROM alert_events WHERE at < ?');
  // Open incidents stay whatever their age: the check has not recovered.
  const pruneIncidents = db.prepare('DELETE FROM incidents WHERE ended_at IS NOT NULL AND ended_at < ?');
  const prune = db.transaction((before: number) => {
    pruneAlerts.run(before);
    pruneIncidents.run(before);
    pruneScreenshots.run(before);
    return pruneResults.run(before).changes;
  });
  return {
    ...createResultStore(db),
    ...createScreenshotStore(db),
    ...createAccountStore(db),
    prune: (before: number) => prune(before),
    close: () => db.close(),
  };
}
