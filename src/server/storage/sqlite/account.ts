// Heartbeat pings, incidents and the alert counts of a check status.
import type Database from 'better-sqlite3';
import type { AlertCounts, IncidentRow } from '../types.js';
import { isEmptyRuns, NO_HEARTBEAT_RUNS, type HeartbeatRuns } from '../results-store.js';

export function createAccountStore(db: Database.Database) {
  const upsertPing = db.prepare(
    'INSERT INTO pings (account_id, check_id, at) VALUES (?, ?, ?) ON CONFLICT (account_id, check_id) DO UPDATE SET at = excluded.at',
  );
  const getPing = db.prepare('SELECT at FROM pings WHERE account_id = ? AND check_id = ?');
  const getRuns = db.prepare('SELECT json FROM heartbeat_runs WHERE account_id = ? AND check_id = ?');
  const putRuns = db.prepare(
    'INSERT INTO heartbeat_runs (account_id, check_id, json) VALUES (?, ?, ?) ON CONFLICT (account_id, check_id) DO UPDATE SET json = excluded.json',
  );
  const dropRuns = db.prepare('DELETE FROM heartbeat_runs WHERE account_id = ? AND check_id = ?');
  const insertIncident = db.prepare(
    'INSERT INTO incidents (id, account_id, check_id, severity, title, started_at, ended_at) VALUES (?, ?, ?, ?, ?, ?, NULL)',
  );
  const endIncident = db.prepare(
    'UPDATE incidents SET ended_at = ? WHERE account_id = ? AND check_id = ? AND ended_at IS NULL',
  );
  const openIncident = db.prepare(
    `SELECT id, check_id AS checkId, severity, title, started_at AS startedAt, ended_at AS endedAt
     FROM incidents WHERE account_id = ? AND check_id = ? AND ended_at IS NULL ORDER BY started_at DESC LIMIT 1`,
  );
  const overlapping = db.prepare(
    `SELECT id, check_id AS checkId, severity, title, started_at AS startedAt, ended_at AS endedAt
     FROM incidents WHERE account_id = ? AND check_id = ? AND started_at <= ? AND (ended_at IS NULL OR ended_at >= ?)
     ORDER BY started_at, id`,
  );
  const counts = db.prepare(
    `SELECT
       coalesce(sum(resolved_at IS NULL AND acknowledged_at IS NULL), 0) AS active,
       coalesce(sum(resolved_at IS NULL AND acknowledged_at IS NOT NULL), 0) AS acknowledged,
       coalesce(sum(opened_at >= ?), 0) AS total24h
     FROM check_alerts WHERE account_id = ? AND check_id = ? AND (resolved_at IS NULL OR opened_at >= ?)`,
  );

  return {
    recordPing: (accountId: string, checkId: string, at: number) =>
      void upsertPing.run(accountId, checkId, at),
    lastPing: (accountId: string, checkId: string) =>
      (getPing.get(accountId, checkId) as { at: number } | undefined)?.at ?? null,
    heartbeatRuns(accountId: string, checkId: string): HeartbeatRuns {
      const row = getRuns.get(accountId, checkId) as { json: string } | undefined;
      return row ? (JSON.parse(row.json) as HeartbeatRuns) : NO_HEARTBEAT_RUNS;
    },
    saveHeartbeatRuns(accountId: string, checkId: string, runs: HeartbeatRuns) {
      if (isEmptyRuns(runs)) dropRuns.run(accountId, checkId);
      else putRuns.run(accountId, checkId, JSON.stringify(runs));
    },

    openIncident: (accountId: string, i: IncidentRow) =>
      void insertIncident.run(i.id, accountId, i.checkId, i.severity, i.title, i.startedAt),
    closeIncident: (accountId: string, checkId: string, at: number) =>
      void endIncident.run(at, accountId, checkId),
    currentIncident: (accountId: string, checkId: string) =>
      (openIncident.get(accountId, checkId) as IncidentRow | undefined) ?? null,
    incidents: (accountId: string, checkId: string, from: number, to: number) =>
      overlapping.all(accountId, checkId, to, from) as IncidentRow[],
    /** Active: open and not acknowledged; acknowledged: open and acknowledged; total: opened in 24 h. */
    alertCounts(accountId: string, checkId: string, now: number): AlertCounts {
      const since = now - 86_400_000;
      return counts.get(since, accountId, checkId, since) as AlertCounts;
    },
  };
}
