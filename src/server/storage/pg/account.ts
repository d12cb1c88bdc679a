// Heartbeat pings, incidents and the alert counts of a check status, on PostgreSQL.
import type pg from 'pg';
import { first, rows, type Queryable } from './db.js';
import { perKey } from './per-key.js';
import type { AlertCounts, IncidentRow, Storage } from '../types.js';
import { isEmptyRuns, NO_HEARTBEAT_RUNS, type HeartbeatRuns } from '../results-store.js';

const INCIDENT_COLUMNS = `id, check_id AS "checkId", severity, title, started_at AS "startedAt",
  ended_at AS "endedAt"`;

export async function insertIncident(q: Queryable, accountId: string, i: IncidentRow): Promise<void> {
  await q.query(
    `INSERT INTO incidents (id, account_id, check_id, severity, title, started_at, ended_at)
     VALUES ($1, $2, $3, $4, $5, $6, NULL)`,
    [i.id, accountId, i.checkId, i.severity, i.title, i.startedAt],
  );
}

export async function endIncident(
  q: Queryable,
  accountId: string,
  checkId: string,
  at: number,
): Promise<void> {
  await q.query(
    'UPDATE incidents SET ended_at = $1 WHERE account_id = $2 AND check_id = $3 AND ended_at IS NULL',
    [at, accountId, checkId],
  );
}

type AccountStore = Pick<
  Storage,
  | 'recordPing'
  | 'lastPing'
  | 'heartbeatRuns'
  | 'saveHeartbeatRuns'
  | 'openIncident'
  | 'closeIncident'
  | 'currentIncident'
  | 'incidents'
  | 'alertCounts'
>;

export function createPgAccountStore(pool: pg.Pool): AccountStore {
  // Read for every status (status/inputs.ts): one statement for the calls of a moment (pg/per-key.ts).
  const incident = perKey<[string, string], IncidentRow>(
    pool,
    ['text', 'text'],
    `SELECT ${INCIDENT_COLUMNS} FROM incidents WHERE account_id = k.p1 AND check_id = k.p2 AND ended_at IS NULL
     ORDER BY started_at DESC LIMIT 1`,
  );
  /** Active: open and not acknowledged; acknowledged: open and acknowledged; total: opened in 24 h (since p3). */
  const counts = perKey<[string, string, number], AlertCounts>(
    pool,
    ['text', 'text', 'bigint'],
    `SELECT
       count(*) FILTER (WHERE resolved_at IS NULL AND acknowledged_at IS NULL) AS active,
       count(*) FILTER (WHERE resolved_at IS NULL AND acknowledged_at IS NOT NULL) AS acknowledged,
       count(*) FILTER (WHERE opened_at >= k.p3) AS "total24h"
     FROM check_alerts WHERE account_id = k.p1 AND check_id = k.p2 AND (resolved_at IS NULL OR opened_at >= k.p3)`,
  );
  return {
    async recordPing(accountId, checkId, at) {
      await pool.query(
        `INSERT INTO pings (account_id, check_id, at) VALUES ($1, $2, $3)
         ON CONFLICT (account_id, check_id) DO UPDATE SET at = excluded.at`,
        [accountId, checkId, at],
      );
    },
    async lastPing(accountId, checkId) {
      const row = await first<{ at: number }>(
        pool,
        'SELECT at FROM pings WHERE account_id = $1 AND check_id = $2',
        [accountId, checkId],
      );
      return row?.at ?? null;
    },
    async heartbeatRuns(accountId, checkId) {
      const row = await first<{ json: string }>(
        pool,
        'SELECT json FROM heartbeat_runs WHERE account_id = $1 AND check_id = $2',
        [accountId, checkId],
      );
      return row ? (JSON.parse(row.json) as HeartbeatRuns) : NO_HEARTBEAT_RUNS;
    },
    async saveHeartbeatRuns(accountId, checkId, runs) {
      if (isEmptyRuns(runs))
        await pool.query('DELETE FROM heartbeat_runs WHERE account_id = $1 AND check_id = $2', [
          accountId,
          checkId,
        ]);
      else
        await pool.query(
          `INSERT INTO heartbeat_runs (account_id, check_id, json) VALUES ($1, $2, $3)
           ON CONFLICT (account_id, check_id) DO UPDATE SET json = excluded.json`,
          [accountId, checkId, JSON.stringify(runs)],
        );
    },
    openIncident: (accountId, incident) => insertIncident(pool, accountId, incident),
    closeIncident: (accountId, checkId, at) => endIncident(pool, accountId, checkId, at),
    currentIncident: async (accountId, checkId) => (await incident(accountId, checkId))[0] ?? null,
    incidents: (accountId, checkId, from, to) =>
      rows<IncidentRow>(
        pool,
        `SELECT ${INCIDENT_COLUMNS} FROM incidents
         WHERE account_id = $1 AND check_id = $2 AND started_at <= $4 AND (ended_at IS NULL OR ended_at >= $3)
         ORDER BY started_at, id`,
        [accountId, checkId, from, to],
      ),
    alertCounts: async (accountId, checkId, now) => (await counts(accountId, checkId, now - 86_400_000))[0]!,
  };
}
