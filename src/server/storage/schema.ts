// Schema migrations, applied in order and recorded in PRAGMA user_version.
import type Database from 'better-sqlite3';

export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE results (
     id TEXT PRIMARY KEY,
     account_id TEXT NOT NULL,
     check_id TEXT NOT NULL,
     location_id TEXT NOT NULL,
     ok INTEGER NOT NULL,             -- 1 success, 0 failed
     started_at INTEGER NOT NULL,     -- epoch ms
     duration INTEGER NOT NULL,
     response_time INTEGER,           -- null when no response arrived
     triggered_by TEXT NOT NULL,
     json TEXT NOT NULL
   );
   -- Serves the time window with every filter and the default sort; covering
   -- for the status engine's counts, averages and percentiles.
   CREATE INDEX results_check_time ON results (account_id, check_id, started_at, ok, response_time);
   CREATE INDEX results_check_location_time ON results (account_id, check_id, location_id, started_at);
   CREATE INDEX results_check_ok_time ON results (account_id, check_id, ok, started_at);
   CREATE INDEX results_time ON results (started_at);
   CREATE TABLE pings (
     account_id TEXT NOT NULL,
     check_id TEXT NOT NULL,
     at INTEGER NOT NULL,
     PRIMARY KEY (account_id, check_id)
   );
   CREATE TABLE channels (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     account_id TEXT NOT NULL,
     type TEXT NOT NULL,
     name TEXT NOT NULL,
     config TEXT NOT NULL,
     created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL
   );
   CREATE INDEX channels_account ON channels (account_id, id);
   CREATE TABLE incidents (
     id TEXT PRIMARY KEY,
     account_id TEXT NOT NULL,
     check_id TEXT NOT NULL,
     severity TEXT NOT NULL,
     title TEXT NOT NULL,
     started_at INTEGER NOT NULL,
     ended_at INTEGER
   );
   CREATE INDEX incidents_open ON incidents (account_id, check_id, ended_at);
   CREATE TABLE alert_events (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     account_id TEXT NOT NULL,
     check_id TEXT NOT NULL,
     kind TEXT NOT NULL,
     at INTEGER NOT NULL,
     acknowledged INTEGER NOT NULL DEFAULT 0
   );
   CREATE INDEX alert_events_check ON alert_events (account_id, check_id, at);`,
  // Issue #15: a browser run's screenshot, apart from its result's JSON so the
  // hot list queries never read it; started_at repeats the result's for pruning.
  `CREATE TABLE screenshots (
     result_id TEXT PRIMARY KEY,
     account_id TEXT NOT NULL,
     check_id TEXT NOT NULL,
     started_at INTEGER NOT NULL,     -- epoch ms, the result's
     png BLOB NOT NULL
   );
   CREATE INDEX screenshots_time ON screenshots (started_at);`,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

export function migrate(db: Database.Database): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  // An older checkwall must not write into tables it does not understand.
  if (current > SCHEMA_VERSION)
    throw new Error(
      `it has schema version ${current}, newer than this checkwall's ${SCHEMA_VERSION}: upgrade checkwall`,
    );
  for (let version = current; version < MIGRATIONS.length; version++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[version]!);
      db.pragma(`user_version = ${version + 1}`);
    })();
  }
}
