// Schema migrations, applied in order and recorded in PRAGMA user_version.
import type Database from 'better-sqlite3';
import { rollupSql, rollupTable } from '../history.js';

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
  // docs/browser-checks.md: a browser run's screenshot, apart from its result's JSON so the
  // hot list queries never read it; started_at repeats the result's for pruning.
  `CREATE TABLE screenshots (
     result_id TEXT PRIMARY KEY,
     account_id TEXT NOT NULL,
     check_id TEXT NOT NULL,
     started_at INTEGER NOT NULL,     -- epoch ms, the result's
     png BLOB NOT NULL
   );
   CREATE INDEX screenshots_time ON screenshots (started_at);`,
  // Alert delivery (docs/alerts.md): subscriptions, alerts with their acknowledgement and
  // reminders, and the outbox of notifications. alert_events, made by an
  // earlier migration, stays as migrations never change: nothing writes it.
  `ALTER TABLE channels ADD COLUMN signing_secret TEXT;
   CREATE TABLE channel_subscriptions (
     channel_id INTEGER NOT NULL REFERENCES channels (id) ON DELETE CASCADE,
     kind TEXT NOT NULL,              -- 'check' or 'group'
     target_id TEXT NOT NULL,
     PRIMARY KEY (channel_id, kind, target_id)
   );
   CREATE INDEX channel_subscriptions_target ON channel_subscriptions (kind, target_id);
   CREATE TABLE check_alerts (
     id TEXT PRIMARY KEY,
     account_id TEXT NOT NULL,
     check_id TEXT NOT NULL,
     incident_id TEXT,
     opened_at INTEGER NOT NULL,
     resolved_at INTEGER,
     acknowledged_at INTEGER,
     reminders_sent INTEGER NOT NULL DEFAULT 0,
     last_notified_at INTEGER NOT NULL
   );
   CREATE INDEX check_alerts_check ON check_alerts (account_id, check_id, resolved_at, opened_at);
   CREATE INDEX check_alerts_open ON check_alerts (resolved_at, acknowledged_at);
   -- The outbox: a row per (event, channel), written with the status change;
   -- the id is the delivery id every attempt carries.
   CREATE TABLE alert_notifications (
     id TEXT PRIMARY KEY,
     account_id TEXT NOT NULL,
     channel_id INTEGER NOT NULL,
     check_id TEXT,
     alert_id TEXT,
     event TEXT NOT NULL,
     status TEXT NOT NULL,            -- pending, sent, failed, suppressed
     payload TEXT NOT NULL,
     attempts INTEGER NOT NULL DEFAULT 0,
     last_error TEXT,
     created_at INTEGER NOT NULL,
     next_attempt_at INTEGER,         -- pending only
     lease_until INTEGER,             -- while an attempt is under way
     sent_at INTEGER
   );
   CREATE INDEX alert_notifications_due ON alert_notifications (status, next_attempt_at);
   CREATE INDEX alert_notifications_account ON alert_notifications (account_id, created_at);
   CREATE INDEX alert_notifications_check ON alert_notifications (account_id, check_id, channel_id, event, created_at);
   CREATE INDEX alert_notifications_channel ON alert_notifications (channel_id, created_at);
   CREATE INDEX alert_notifications_alert ON alert_notifications (alert_id);`,
  // docs/runners.md: the shared queue of scheduled runs (storage/types.ts RunQueue). A run is
  // one check x location x due time, unique: whoever inserts it first owns the offer,
  // and a result is stored only by the holder of its token, once (completed_at).
  `CREATE TABLE runs (
     id TEXT PRIMARY KEY,
     account_id TEXT NOT NULL,
     check_id TEXT NOT NULL,
     location_id TEXT NOT NULL,
     due_at INTEGER NOT NULL,         -- epoch ms, from the schedule plan
     token TEXT,                      -- the holder's claim; null while it waits for a runner
     lease_until INTEGER,             -- null while it waits; past it, the run is given again
     attempt INTEGER NOT NULL DEFAULT 0,
     completed_at INTEGER,            -- set once, with the result
     UNIQUE (account_id, check_id, location_id, due_at)
   );
   CREATE INDEX runs_open ON runs (account_id, location_id, completed_at, due_at);
   CREATE INDEX runs_due ON runs (due_at);
   CREATE TABLE runners_seen (
     account_id TEXT NOT NULL,
     location_id TEXT NOT NULL,
     runner_id TEXT NOT NULL,
     last_seen_at INTEGER NOT NULL,
     PRIMARY KEY (account_id, location_id, runner_id)
   );`,
  // docs/status-page.md: hourly and daily roll-ups of results (history.ts), kept for historyDays.
  `${rollupTable('history_hourly', 'INTEGER', 'INTEGER')}
   ${rollupTable('history_daily', 'INTEGER', 'INTEGER')}
   CREATE INDEX incidents_check_time ON incidents (account_id, check_id, started_at);
   -- The results already kept are rolled up, so history starts with them.
   ${rollupSql('hour', 'results')};
   ${rollupSql('day', 'results')};`,
  // docs/actions.md: the audit trail, every action of a key (docs/roles.md); seq orders
  // events of one millisecond as they were recorded.
  `CREATE TABLE audit_events (
     seq INTEGER PRIMARY KEY AUTOINCREMENT,
     id TEXT NOT NULL UNIQUE,
     account_id TEXT NOT NULL,
     at INTEGER NOT NULL,             -- epoch ms
     key_name TEXT NOT NULL,
     action TEXT NOT NULL,
     check_id TEXT,
     target_id TEXT,
     details TEXT NOT NULL            -- JSON object
   );
   CREATE INDEX audit_events_account ON audit_events (account_id, at);
   CREATE INDEX audit_events_check ON audit_events (account_id, check_id, at);`,
  // docs/actions.md: runs asked for (their trigger; one pending per check x location), the
  // moment past which a run is not started late, why a run was skipped, and whether
  // its result succeeded (read back by id); and a person's pause of a check.
  `ALTER TABLE runs ADD COLUMN triggered_by TEXT NOT NULL DEFAULT 'schedule';
   ALTER TABLE runs ADD COLUMN stale_at INTEGER;
   ALTER TABLE runs ADD COLUMN skipped TEXT;
   ALTER TABLE runs ADD COLUMN ok INTEGER;
   CREATE UNIQUE INDEX runs_asked_pending ON runs (account_id, check_id, location_id)
     WHERE triggered_by <> 'schedule' AND completed_at IS NULL;
   CREATE TABLE check_pauses (
     account_id TEXT NOT NULL,
     check_id TEXT NOT NULL,
     paused_by TEXT NOT NULL,
     since INTEGER NOT NULL,
     PRIMARY KEY (account_id, check_id)
   );`,
  // docs/maintenance.md: maintenance windows (the record as JSON: read whole, a few per account),
  // and the ends of occurrences already paged for (one page per end, whoever claims it).
  `CREATE TABLE maintenance_windows (
     account_id TEXT NOT NULL,
     id TEXT NOT NULL,
     data TEXT NOT NULL,
     PRIMARY KEY (account_id, id)
   );
   CREATE TABLE maintenance_ends (
     account_id TEXT NOT NULL,
     window_id TEXT NOT NULL,
     ends_at INTEGER NOT NULL,
     PRIMARY KEY (account_id, window_id, ends_at)
   );`,
  // docs/certificates.md: the expiry thresholds notified per certificate of a check (`certificate`
  // events): the key makes each one once, for every instance sharing the database.
  `CREATE TABLE certificate_notices (
     account_id TEXT NOT NULL,
     check_id TEXT NOT NULL,
     certificate TEXT NOT NULL,       -- domain/certificate.ts certificateKey
     threshold INTEGER NOT NULL,      -- days
     at INTEGER NOT NULL,             -- epoch ms
     PRIMARY KEY (account_id, check_id, certificate, threshold)
   );`,
  // docs/alerts.md: the page of a check still failing when a hold ended, claimed per check in
  // the transaction of its notifications (alerting/hold-end.ts); how far the ends of each
  // kind of hold were looked at, so a service down for an hour still pages for the end it
  // missed (from the last end an earlier checkwall claimed: it paged for those); and who
  // holds an outbox lease, so a killed holder's leases go at the next start.
  `CREATE TABLE hold_pages (
     kind TEXT NOT NULL,              -- maintenance, dependency, location
     account_id TEXT NOT NULL,
     hold_id TEXT NOT NULL,
     ends_at INTEGER NOT NULL,        -- epoch ms
     check_id TEXT NOT NULL,
     PRIMARY KEY (kind, account_id, hold_id, ends_at, check_id)
   );
   CREATE TABLE hold_ends_processed (
     kind TEXT PRIMARY KEY,
     up_to INTEGER NOT NULL           -- epoch ms
   );
   INSERT INTO hold_ends_processed (kind, up_to)
     SELECT 'maintenance', max(ends_at) FROM maintenance_ends HAVING count(*) > 0;
   ALTER TABLE alert_notifications ADD COLUMN lease_holder TEXT;`,
  // docs/service.md, "Heartbeats": a job's runs under way and its /log notes, so a restart
  // between a /start and its end still times the run (and maxRunTime still fires).
  `CREATE TABLE heartbeat_runs (
     account_id TEXT NOT NULL,
     check_id TEXT NOT NULL,
     json TEXT NOT NULL,              -- { starts: { rid: epoch ms }, notes: [text] }
     PRIMARY KEY (account_id, check_id)
   );`,
  // docs/alerts.md, "A broken location": one row per location outage; at most one open per
  // location (the partial index), so it is declared and paged for once, by whoever is first.
  `CREATE TABLE location_outages (
     id TEXT PRIMARY KEY,
     account_id TEXT NOT NULL,
     location_id TEXT NOT NULL,
     since INTEGER NOT NULL,          -- epoch ms
     ended_at INTEGER,
     no_runner INTEGER NOT NULL,      -- 1: the location's runners stopped asking for work
     failing INTEGER NOT NULL,
     total INTEGER NOT NULL,
     end_paged INTEGER NOT NULL DEFAULT 0,
     channels TEXT NOT NULL DEFAULT '[]'  -- the channels its page went to: its recovery goes there
   );
   CREATE UNIQUE INDEX location_outages_open ON location_outages (account_id, location_id)
     WHERE ended_at IS NULL;
   -- docs/alerts.md, "No race": a page waiting for a hold's decision (location:<id>), not
   -- sent before its wait ends or the decision comes.
   ALTER TABLE alert_notifications ADD COLUMN waiting_on TEXT;
   CREATE INDEX alert_notifications_waiting ON alert_notifications (account_id, waiting_on)
     WHERE waiting_on IS NOT NULL;`,
  // docs/maintenance.md, "Storage": windows are read incrementally, by the time each row last
  // changed (the writer's clock); a deleted window stays as a tombstone (deleted = 1) until
  // pruned, so every instance's next read sees it go.
  `ALTER TABLE maintenance_windows ADD COLUMN updated_at INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE maintenance_windows ADD COLUMN deleted INTEGER NOT NULL DEFAULT 0;
   -- when the window has ended for good, at the latest (domain/maintenance-end.ts): pruned
   -- after historyDays; null while it repeats without end (and for rows saved before).
   ALTER TABLE maintenance_windows ADD COLUMN last_end INTEGER;
   CREATE INDEX maintenance_windows_updated ON maintenance_windows (updated_at);`,
  // docs/alerts.md, "Grouping per channel": a page sent with the others of its channel at
  // group_until; a channel's window (NULL: its type's default, alerting/grouping.ts).
  `ALTER TABLE alert_notifications ADD COLUMN group_until INTEGER;
   ALTER TABLE channels ADD COLUMN group_window_seconds INTEGER;`,
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
