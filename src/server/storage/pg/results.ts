// Results and their screenshots on PostgreSQL: the same answers as sqlite/results.ts.
// A stored result notifies the other instances (pg/changes.ts) in its own statement
// or transaction, so they hear of it only once it can be read.
import type pg from 'pg';
import type { CheckResult, ResultsSummary } from '../../../api/schemas/index.js';
import { CHANGES_CHANNEL } from './changes.js';
import { columnsOf, first, rows, unnestArgs, unnestParams, type Queryable } from './db.js';
import { perKey } from './per-key.js';
import { bucketOfRow, historyParams, historySql, rollupSql } from '../history.js';
import { resultsSummary, runOf, storedResponseTime } from '../rows.js';
import type { RecentRun, ResultQuery, Storage, WindowRun, WindowStats } from '../types.js';

const SORT_COLUMN = { startedAt: 'started_at', duration: 'duration', responseTime: 'response_time' } as const;

function where(q: ResultQuery): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const clauses: string[] = [];
  const add = (clause: string, value: unknown) => {
    params.push(value);
    clauses.push(clause.replace('?', `$${params.length}`));
  };
  add('account_id = ?', q.accountId);
  add('check_id = ?', q.checkId);
  add('started_at >= ?', q.from);
  add('started_at <= ?', q.to);
  if (q.status) add('ok = ?', q.status === 'success');
  if (q.location) add('location_id = ?', q.location);
  if (q.triggeredBy) add('triggered_by = ?', q.triggeredBy);
  if (q.responseTimeMin !== undefined) add('response_time >= ?', q.responseTimeMin);
  if (q.responseTimeMax !== undefined) add('response_time <= ?', q.responseTimeMax);
  return { sql: clauses.join(' AND '), params };
}

const COLUMNS =
  'id, account_id, check_id, location_id, ok, started_at, duration, response_time, triggered_by, json';
/** The types of COLUMNS, in order: the arrays of an `unnest` of result rows. */
export const RESULT_TYPES = ['text', 'text', 'text', 'text', 'bool', 'bigint', 'int', 'int', 'text', 'json'];
/** An upsert of COLUMNS taking its rows from `source`. */
export const upsertResults = (source: string) => `INSERT INTO results (${COLUMNS})
  ${source}
  ON CONFLICT (id) DO UPDATE SET account_id = excluded.account_id, check_id = excluded.check_id,
    location_id = excluded.location_id, ok = excluded.ok, started_at = excluded.started_at,
    duration = excluded.duration, response_time = excluded.response_time,
    triggered_by = excluded.triggered_by, json = excluded.json`;
const UPSERT = upsertResults(`SELECT * FROM unnest(${unnestArgs(RESULT_TYPES)})`);

/**
 * A stored result's change (pg/changes.ts) as SQL over a row of `results` columns,
 * the instance's id in the parameter that `origin` names (e.g. `$11`): the result
 * itself when it fits a NOTIFY (under 8,000 bytes), so another instance updates the
 * check's status without reading it back, else only its check. Made by the database
 * from the stored JSON: sent from here, each result crosses the wire twice, and the
 * driver escapes both copies into an array literal (BENCHMARKS.md, "Why the code is
 * as it is").
 */
export const changeSql = (origin: string) => `(SELECT CASE WHEN octet_length(full_) < ${NOTIFY_BYTES}
    THEN full_ ELSE ${bareChangeSql(origin)} END
  FROM (SELECT json_build_object('origin', ${origin}::text, 'kind', 'result', 'accountId', account_id,
    'checkId', check_id, 'result', json)::text AS full_) AS built_)`;
/** A change naming only the check of a row with `account_id` and `check_id`: its status is read anew. */
const bareChangeSql = (origin: string) =>
  `json_build_object('origin', ${origin}::text, 'kind', 'result', 'accountId', account_id, 'checkId', check_id)::text`;
const NOTIFY_BYTES = 7_900;

/**
 * The upsert and its changes in one statement: atomic without a transaction. A
 * data-modifying WITH runs once whether or not it is read. A large batch (an import,
 * over CARRIED_RESULTS) says only which checks moved, once each.
 */
/**
 * The roll-ups (history.ts) of the results `stored` returned, in the same statement:
 * no transaction of their own. A result is counted when its id is first stored
 * (xmax is 0 on a row the upsert inserted): one stored again keeps its first counts.
 */
const STORED = `${UPSERT} RETURNING account_id, check_id, location_id, ok, started_at, response_time, json,
  (xmax = 0) AS fresh_`;
const ROLLED = `hourly_ AS (${rollupSql('hour', 'stored', 'fresh_')}),
  daily_ AS (${rollupSql('day', 'stored', 'fresh_')})`;
const UPSERT_AND_NOTIFY = `WITH stored AS (${STORED}), ${ROLLED}
  SELECT pg_notify('${CHANGES_CHANNEL}', ${changeSql('$11')}) FROM stored`;
const UPSERT_AND_NOTIFY_CHECKS = `WITH stored AS (${STORED}), ${ROLLED}
  SELECT pg_notify('${CHANGES_CHANNEL}', ${bareChangeSql('$11')})
  FROM (SELECT DISTINCT account_id, check_id FROM stored) AS moved`;
export const CARRIED_RESULTS = 100;

/** The parameters of one multi-row upsert; a repeated id keeps its last result (as INSERT OR REPLACE). */
function columns(accountId: string, results: readonly CheckResult[]): unknown[] {
  const byId = new Map(results.map((r) => [r.id, r]));
  return unnestParams(
    columnsOf(
      [...byId.values()].map((r) => resultRow(accountId, r)),
      RESULT_TYPES.length,
    ),
    RESULT_TYPES,
  );
}

/** A result's values of COLUMNS, in order. */
export const resultRow = (accountId: string, r: CheckResult): unknown[] => [
  r.id,
  accountId,
  r.checkId,
  r.location.id,
  r.status === 'success',
  Date.parse(r.startedAt),
  r.duration,
  storedResponseTime(r),
  r.triggeredBy,
  JSON.stringify(r),
];

/** Stores results and notifies their changes (at the commit of `q`'s transaction if it has one). */
export async function writeResults(
  q: Queryable,
  origin: string,
  accountId: string,
  results: readonly CheckResult[],
): Promise<void> {
  if (results.length === 0) return;
  if (results.length > CARRIED_RESULTS)
    await q.query(UPSERT_AND_NOTIFY_CHECKS, [...columns(accountId, results), origin]);
  else await q.query(UPSERT_AND_NOTIFY, [...columns(accountId, results), origin]);
}

/** An upsert of screenshots taking (result_id, account_id, check_id, started_at, png) rows from `source`. */
export const upsertScreenshots = (source: string) =>
  `INSERT INTO screenshots (result_id, account_id, check_id, started_at, png)
   ${source}
   ON CONFLICT (result_id) DO UPDATE SET account_id = excluded.account_id, check_id = excluded.check_id,
     started_at = excluded.started_at, png = excluded.png`;
const UPSERT_SCREENSHOT = upsertScreenshots('VALUES ($1, $2, $3, $4, $5)');

export async function writeScreenshot(
  q: Queryable,
  accountId: string,
  result: Pick<CheckResult, 'id' | 'checkId' | 'startedAt'>,
  png: Uint8Array,
): Promise<void> {
  await q.query(UPSERT_SCREENSHOT, [
    result.id,
    accountId,
    result.checkId,
    Date.parse(result.startedAt),
    Buffer.from(png),
  ]);
}

type Agg = { total: number; ok: number; avg: number | null; timed: number };
const AGG = `count(*) AS total, count(*) FILTER (WHERE ok) AS ok, avg(response_time)::float8 AS avg,
  count(response_time) AS timed`;

type ResultStore = Pick<
  Storage,
  | 'queryResults'
  | 'summarizeResults'
  | 'windowStats'
  | 'recentRuns'
  | 'windowRuns'
  | 'consecutiveFailures'
  | 'lastSuccess'
  | 'latestResult'
  | 'screenshot'
  | 'history'
  | 'historyTotals'
>;

export function createPgResultStore(pool: pg.Pool): ResultStore {
  /** Nearest rank: the response time at rank ceil(p * timed) of those matching `sql`. */
  async function percentile(sql: string, params: unknown[], timed: number, p: number) {
    if (timed === 0) return null;
    const offset = Math.max(0, Math.ceil(p * timed) - 1);
    const row = await first<{ v: number }>(
      pool,
      `SELECT response_time AS v FROM results WHERE ${sql} AND response_time IS NOT NULL
       ORDER BY response_time LIMIT 1 OFFSET $${params.length + 1}`,
      [...params, offset],
    );
    return row?.v ?? null;
  }

  // What a status is read from (status/inputs.ts), one statement for the calls of a moment (pg/per-key.ts).
  const WINDOW = 'account_id = k.p1 AND check_id = k.p2 AND started_at >= k.p3 AND started_at <= k.p4';
  const stats = perKey<[string, string, number, number], Agg & { p95?: number | null }>(
    pool,
    ['text', 'text', 'bigint', 'bigint'],
    `SELECT ${AGG} FROM results WHERE ${WINDOW}`,
  );
  // percentile_disc is the nearest rank: the value at rank ceil(0.95 * timed), as `percentile`.
  const statsWithP95 = perKey<[string, string, number, number], Agg & { p95: number | null }>(
    pool,
    ['text', 'text', 'bigint', 'bigint'],
    `SELECT ${AGG}, percentile_disc(0.95) WITHIN GROUP (ORDER BY response_time) AS p95
     FROM results WHERE ${WINDOW}`,
  );
  type Row = { startedAt: number; ok: boolean; responseTime: number | null };
  const recent = perKey<[string, string, string, number], Row>(
    pool,
    ['text', 'text', 'text', 'int'],
    `SELECT started_at AS "startedAt", ok, response_time AS "responseTime" FROM results
     WHERE account_id = k.p1 AND check_id = k.p2 AND location_id = k.p3 ORDER BY started_at DESC LIMIT k.p4`,
    'r."startedAt" DESC',
  );
  const inWindow = perKey<[string, string, number, number, number], Row & { locationId: string }>(
    pool,
    ['text', 'text', 'bigint', 'bigint', 'int'],
    `SELECT started_at AS "startedAt", ok, response_time AS "responseTime", location_id AS "locationId"
     FROM results WHERE ${WINDOW} ORDER BY started_at DESC LIMIT k.p5`,
    'r."startedAt" DESC',
  );
  const success = perKey<[string, string, string], { at: number | null }>(
    pool,
    ['text', 'text', 'text'],
    `SELECT max(started_at) AS at FROM results
     WHERE account_id = k.p1 AND check_id = k.p2 AND location_id = k.p3 AND ok`,
  );
  const latest = perKey<[string, string], { json: CheckResult }>(
    pool,
    ['text', 'text'],
    'SELECT json FROM results WHERE account_id = k.p1 AND check_id = k.p2 ORDER BY started_at DESC LIMIT 1',
  );

  return {
    async queryResults(q) {
      const { sql, params } = where(q);
      const count = await first<{ n: number }>(
        pool,
        `SELECT count(*) AS n FROM results WHERE ${sql}`,
        params,
      );
      // Runs without a response time go last in either order: they are not the fastest.
      const nulls = q.sortBy === 'responseTime' ? 'response_time IS NULL, ' : '';
      const order = `${nulls}${SORT_COLUMN[q.sortBy]} ${q.sortOrder === 'asc' ? 'ASC' : 'DESC'}, started_at DESC, id COLLATE "C"`;
      const n = params.length;
      const items = await rows<{ json: CheckResult }>(
        pool,
        `SELECT json FROM results WHERE ${sql} ORDER BY ${order} LIMIT $${n + 1} OFFSET $${n + 2}`,
        [...params, q.limit, q.offset],
      );
      return { items: items.map((r) => r.json), total: count?.n ?? 0 };
    },

    async summarizeResults(q): Promise<ResultsSummary> {
      const { sql, params } = where(q);
      const agg = (await first<Agg>(pool, `SELECT ${AGG} FROM results WHERE ${sql}`, params))!;
      return resultsSummary(
        agg,
        await percentile(sql, params, agg.timed, 0.95),
        await percentile(sql, params, agg.timed, 0.99),
      );
    },

    async windowStats(accountId, checkId, from, to, withP95 = true): Promise<WindowStats> {
      const [agg] = await (withP95 ? statsWithP95 : stats)(accountId, checkId, from, to);
      return {
        total: agg!.total,
        successes: agg!.ok,
        timed: agg!.timed,
        averageResponseTime: agg!.avg,
        p95ResponseTime: agg!.p95 ?? null,
      };
    },

    recentRuns: async (accountId, checkId, locationId, count): Promise<RecentRun[]> =>
      (await recent(accountId, checkId, locationId, count)).map(runOf),

    windowRuns: async (accountId, checkId, from, to, limit): Promise<WindowRun[]> =>
      (await inWindow(accountId, checkId, from, to, limit)).map((r) => ({
        ...runOf(r),
        locationId: r.locationId,
      })),

    async consecutiveFailures(accountId, checkId, max) {
      const found = await rows<{ ok: boolean }>(
        pool,
        'SELECT ok FROM results WHERE account_id = $1 AND check_id = $2 ORDER BY started_at DESC LIMIT $3',
        [accountId, checkId, max],
      );
      const firstOk = found.findIndex((r) => r.ok);
      return firstOk === -1 ? found.length : firstOk;
    },

    lastSuccess: async (accountId, checkId, locationId) =>
      (await success(accountId, checkId, locationId))[0]?.at ?? null,

    latestResult: async (accountId, checkId) => (await latest(accountId, checkId))[0]?.json ?? null,

    history: async (accountId, checkId, q) =>
      (
        await rows<Record<string, unknown>>(
          pool,
          historySql(q.granularity, { locationId: q.locationId }, (n) => `$${n}`),
          historyParams(accountId, checkId, q),
        )
      ).map((row) => bucketOfRow(row, q.locationId ?? null)),

    async historyTotals(accountId, checkId, q) {
      const row = await first<Record<string, unknown>>(
        pool,
        historySql(q.granularity, { locationId: q.locationId, whole: true }, (n) => `$${n}`),
        historyParams(accountId, checkId, q),
      );
      return bucketOfRow(row ?? { start: q.from }, q.locationId ?? null);
    },

    async screenshot(accountId, checkId, resultId) {
      const row = await first<{ png: Buffer }>(
        pool,
        'SELECT png FROM screenshots WHERE result_id = $1 AND account_id = $2 AND check_id = $3',
        [resultId, accountId, checkId],
      );
      return row?.png ?? null;
    },
  };
}
