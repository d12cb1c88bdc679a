// Results: the hot path of both list endpoints and of the status engine.
import type Database from 'better-sqlite3';
import type { CheckResult, ResultsSummary } from '../../../api/schemas/index.js';
import { rollupSql } from '../history.js';
import { resultsSummary, runOf, storedResponseTime } from '../rows.js';
import type { RecentRun, ResultQuery, WindowRun, WindowStats } from '../types.js';
import { limited } from './limited.js';

const SORT_COLUMN = { startedAt: 'started_at', duration: 'duration', responseTime: 'response_time' } as const;

function where(q: ResultQuery): { sql: string; params: unknown[] } {
  const clauses = ['account_id = ?', 'check_id = ?', 'started_at >= ?', 'started_at <= ?'];
  const params: unknown[] = [q.accountId, q.checkId, q.from, q.to];
  const add = (clause: string, value: unknown) => {
    clauses.push(clause);
    params.push(value);
  };
  if (q.status) add('ok = ?', q.status === 'success' ? 1 : 0);
  if (q.location) add('location_id = ?', q.location);
  if (q.triggeredBy) add('triggered_by = ?', q.triggeredBy);
  if (q.responseTimeMin !== undefined) add('response_time >= ?', q.responseTimeMin);
  if (q.responseTimeMax !== undefined) add('response_time <= ?', q.responseTimeMax);
  return { sql: clauses.join(' AND '), params };
}

const RECENT = (limit: string) => `SELECT started_at AS startedAt, ok, response_time AS responseTime
  FROM results WHERE account_id = ? AND check_id = ? AND location_id = ? ORDER BY started_at DESC LIMIT ${limit}`;
const IN_WINDOW = (limit: string) => `SELECT started_at AS startedAt, ok, response_time AS responseTime,
  location_id AS locationId FROM results WHERE account_id = ? AND check_id = ? AND started_at >= ? AND started_at <= ?
  ORDER BY started_at DESC LIMIT ${limit}`;
const NEWEST_OK = (limit: string) =>
  `SELECT ok FROM results WHERE account_id = ? AND check_id = ? ORDER BY started_at DESC LIMIT ${limit}`;

export function createResultStore(db: Database.Database) {
  const insert = db.prepare(
    `INSERT OR REPLACE INTO results (id, account_id, check_id, location_id, ok, started_at, duration, response_time, triggered_by, json)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const recent = limited(db, RECENT);
  const inWindow = limited(db, IN_WINDOW);
  const newestOk = limited(db, NEWEST_OK);
  const lastOk = db.prepare(
    `SELECT max(started_at) AS at FROM results WHERE account_id = ? AND check_id = ? AND location_id = ? AND ok = 1`,
  );
  const latest = db.prepare(
    `SELECT json FROM results WHERE account_id = ? AND check_id = ? ORDER BY started_at DESC LIMIT 1`,
  );
  const windowCounts = db.prepare(
    `SELECT count(*) AS total, coalesce(sum(ok), 0) AS successes, avg(response_time) AS avg, count(response_time) AS timed
     FROM results WHERE account_id = ? AND check_id = ? AND started_at >= ? AND started_at <= ?`,
  );
  const windowNth = db.prepare(
    `SELECT response_time AS v FROM results
     WHERE account_id = ? AND check_id = ? AND started_at >= ? AND started_at <= ? AND response_time IS NOT NULL
     ORDER BY response_time LIMIT 1 OFFSET ?`,
  );

  const toRow = (accountId: string, r: CheckResult) => [
    r.id,
    accountId,
    r.checkId,
    r.location.id,
    r.status === 'success' ? 1 : 0,
    Date.parse(r.startedAt),
    r.duration,
    storedResponseTime(r),
    r.triggeredBy,
    JSON.stringify(r),
  ];
  // The roll-ups count a result once, when its id is first stored: one stored again
  // (INSERT OR REPLACE, an import repeated) keeps its first counts.
  const known = db.prepare('SELECT 1 FROM results WHERE id = ?').pluck();
  const ROW = `(SELECT ? AS account_id, ? AS check_id, ? AS location_id, ? AS ok, ? AS started_at,
    ? AS response_time)`;
  const rollHour = db.prepare(rollupSql('hour', ROW));
  const rollDay = db.prepare(rollupSql('day', ROW));
  function store(accountId: string, r: CheckResult) {
    const row = toRow(accountId, r);
    const fresh = known.get(r.id) === undefined;
    insert.run(...row);
    if (!fresh) return;
    const counted = [accountId, r.checkId, r.location.id, row[4], row[5], row[7]];
    rollHour.run(...counted);
    rollDay.run(...counted);
  }
  const insertOne = db.transaction(store);
  const insertMany = db.transaction((accountId: string, results: readonly CheckResult[]) => {
    for (const r of results) store(accountId, r);
  });

  /** Nearest-rank percentile in SQL: the value at rank ceil(p * n). */
  function nth(accountId: string, checkId: string, from: number, to: number, count: number, p: number) {
    if (count === 0) return null;
    const offset = Math.max(0, Math.ceil(p * count) - 1);
    const row = windowNth.get(accountId, checkId, from, to, offset) as { v: number } | undefined;
    return row?.v ?? null;
  }

  return {
    insertResult: (accountId: string, r: CheckResult) => insertOne(accountId, r),
    insertResults: (accountId: string, results: readonly CheckResult[]) => insertMany(accountId, results),

    queryResults(q: ResultQuery): { items: CheckResult[]; total: number } {
      const { sql, params } = where(q);
      const total = (
        db.prepare(`SELECT count(*) AS n FROM results WHERE ${sql}`).get(...params) as { n: number }
      ).n;
      const column = SORT_COLUMN[q.sortBy];
      // Runs without a response time go last in either order: they are not the fastest.
      const nulls = q.sortBy === 'responseTime' ? 'response_time IS NULL, ' : '';
      const order = `${nulls}${column} ${q.sortOrder === 'asc' ? 'ASC' : 'DESC'}, started_at DESC, id`;
      const rows = db
        .prepare(`SELECT json FROM results WHERE ${sql} ORDER BY ${order} LIMIT ? OFFSET ?`)
        .all(...params, q.limit, q.offset) as Array<{ json: string }>;
      return { items: rows.map((r) => JSON.parse(r.json) as CheckResult), total };
    },

    summarizeResults(q: ResultQuery): ResultsSummary {
      const { sql, params } = where(q);
      const agg = db
        .prepare(
          `SELECT count(*) AS total, coalesce(sum(ok), 0) AS ok, avg(response_time) AS avg, count(response_time) AS timed
           FROM results WHERE ${sql}`,
        )
        .get(...params) as { total: number; ok: number; avg: number | null; timed: number };
      const pick = (p: number) => {
        if (agg.timed === 0) return 0;
        const offset = Math.max(0, Math.ceil(p * agg.timed) - 1);
        const row = db
          .prepare(
            `SELECT response_time AS v FROM results WHERE ${sql} AND response_time IS NOT NULL ORDER BY response_time LIMIT 1 OFFSET ?`,
          )
          .get(...params, offset) as { v: number } | undefined;
        return row?.v ?? 0;
      };
      return resultsSummary(agg, pick(0.95), pick(0.99));
    },

    windowStats(accountId: string, checkId: string, from: number, to: number, withP95 = true): WindowStats {
      const agg = windowCounts.get(accountId, checkId, from, to) as {
        total: number;
        successes: number;
        avg: number | null;
        timed: number;
      };
      return {
        total: agg.total,
        successes: agg.successes,
        timed: agg.timed,
        averageResponseTime: agg.avg,
        p95ResponseTime: withP95 ? nth(accountId, checkId, from, to, agg.timed, 0.95) : null,
      };
    },

    recentRuns(accountId: string, checkId: string, locationId: string, count: number): RecentRun[] {
      const rows = recent.all(count, accountId, checkId, locationId) as Array<{
        startedAt: number;
        ok: number;
        responseTime: number | null;
      }>;
      return rows.map(runOf);
    },

    windowRuns(accountId: string, checkId: string, from: number, to: number, limit: number): WindowRun[] {
      const rows = inWindow.all(limit, accountId, checkId, from, to) as Array<{
        startedAt: number;
        ok: number;
        responseTime: number | null;
        locationId: string;
      }>;
      return rows.map((r) => ({ ...runOf(r), locationId: r.locationId }));
    },

    consecutiveFailures(accountId: string, checkId: string, max: number): number {
      const rows = newestOk.all(max, accountId, checkId) as Array<{ ok: number }>;
      const firstOk = rows.findIndex((r) => r.ok === 1);
      return firstOk === -1 ? rows.length : firstOk;
    },

    lastSuccess(accountId: string, checkId: string, locationId: string): number | null {
      return (lastOk.get(accountId, checkId, locationId) as { at: number | null }).at;
    },

    latestResult(accountId: string, checkId: string): CheckResult | null {
      const row = latest.get(accountId, checkId) as { json: string } | undefined;
      return row ? (JSON.parse(row.json) as CheckResult) : null;
    },
  };
}
