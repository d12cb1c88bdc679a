// bench:scale's accounting, from the schedule and the database alone: which runs
// were due in the window (every slot's grid instants, src/server/schedule/plan.ts), which
// were stored (a result whose id is its run's id, runs.id = results.id), which
// twice, and each stored run's lag (its result's startedAt minus its dueAt).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import type { ServiceConfig } from '../src/server/config/schema.js';
import { nextDueAt, planSlots } from '../src/server/schedule/plan.js';

export interface RunCount {
  due: number;
  stored: number;
  /** Due, but no stored result for its check × location × due time. */
  missed: number;
  /** A check × location × due time with more than one result. */
  twice: number;
  /** Stored runs that are no due time of the schedule (a second run under another key). */
  offGrid: number;
  /** Results in the window that belong to no run. */
  orphans: number;
  /** Runs claimed more than once (a lease ran out, another runner took it). */
  reclaimed: number;
  /** Offered but still open when counted. */
  open: number;
  lagsMs: number[];
  /** The same lags by the minute of the window their run was due in. */
  lagsByMinute: number[][];
}

const key = (check: string, location: string, dueAt: number) => `${check}\u0000${location}\u0000${dueAt}`;

/** Every run the schedule makes due in [from, to). */
export function dueRuns(config: ServiceConfig, from: number, to: number): Set<string> {
  const due = new Set<string>();
  for (const slot of planSlots(config))
    for (let at = nextDueAt(from, slot.periodMs, slot.offsetMs); at < to; at += slot.periodMs)
      due.add(key(slot.check.id, slot.location.id, at));
  return due;
}

/** Polls until every run due before `to` is completed, or `timeoutMs` passed; how long it took. */
export async function waitDrained(db: string, to: number, timeoutMs: number): Promise<number> {
  const client = new pg.Client({ connectionString: db });
  await client.connect();
  const start = Date.now();
  try {
    for (;;) {
      const { rows } = await client.query<{ n: string }>(
        'SELECT count(*) AS n FROM runs WHERE due_at < $1 AND completed_at IS NULL',
        [to],
      );
      if (Number(rows[0]!.n) === 0 || Date.now() - start > timeoutMs) return Date.now() - start;
      await new Promise((r) => setTimeout(r, 1_000));
    }
  } finally {
    await client.end();
  }
}

export async function countRuns(
  db: string,
  config: ServiceConfig,
  from: number,
  to: number,
): Promise<RunCount> {
  const due = dueRuns(config, from, to);
  const client = new pg.Client({ connectionString: db });
  await client.connect();
  try {
    const { rows } = await client.query<{
      check_id: string;
      location_id: string;
      due_at: string;
      attempt: number;
      completed: boolean;
      results: string;
      lag: string | null;
    }>(
      `SELECT r.check_id, r.location_id, r.due_at, r.attempt, r.completed_at IS NOT NULL AS completed,
         count(s.id) AS results, min(s.started_at) - r.due_at AS lag
       FROM runs r LEFT JOIN results s ON s.id = r.id
       WHERE r.due_at >= $1 AND r.due_at < $2
       GROUP BY r.id`,
      [from, to],
    );
    const orphans = await client.query<{ n: string }>(
      `SELECT count(*) AS n FROM results s
       WHERE s.started_at >= $1 AND s.started_at < $2 AND NOT EXISTS (SELECT 1 FROM runs r WHERE r.id = s.id)`,
      [from, to],
    );
    const perKey = new Map<string, number>();
    const lagsMs: number[] = [];
    const lagsByMinute: number[][] = [];
    let offGrid = 0;
    let reclaimed = 0;
    let open = 0;
    for (const row of rows) {
      const k = key(row.check_id, row.location_id, Number(row.due_at));
      const n = Number(row.results);
      if (!row.completed) open++;
      if (row.attempt > 1) reclaimed++;
      if (n === 0) continue;
      perKey.set(k, (perKey.get(k) ?? 0) + n);
      if (!due.has(k)) offGrid++;
      if (row.lag === null) continue;
      lagsMs.push(Number(row.lag));
      const minute = Math.floor((Number(row.due_at) - from) / 60_000);
      (lagsByMinute[minute] ??= []).push(Number(row.lag));
    }
    if (process.env.CHECKWALL_BENCH_LOGS) lagTimeline(rows, from, process.env.CHECKWALL_BENCH_LOGS);
    const stored = [...perKey.keys()].filter((k) => due.has(k)).length;
    return {
      due: due.size,
      stored,
      missed: due.size - stored,
      twice: [...perKey.values()].filter((n) => n > 1).length,
      offGrid,
      orphans: Number(orphans.rows[0]!.n),
      reclaimed,
      open,
      lagsMs,
      lagsByMinute,
    };
  } finally {
    await client.end();
  }
}

export interface DbActivity {
  /** Transactions committed (each statement outside a transaction is one). */
  commits: number;
  /** Connections opened (pg_stat_database.sessions): each is a backend started, its caches cold. */
  sessions: number;
  /** Rows read (by scans and index fetches). */
  rowsRead: number;
  rowsWritten: number;
}

/** The database's counters so far (pg_stat_database), to divide by the runs stored. */
export async function dbActivity(db: string): Promise<DbActivity> {
  const client = new pg.Client({ connectionString: db });
  await client.connect();
  try {
    const { rows } = await client.query<Record<'c' | 's' | 'r' | 'w', string>>(
      `SELECT xact_commit AS c, sessions AS s, tup_returned + tup_fetched AS r, tup_inserted + tup_updated + tup_deleted AS w
       FROM pg_stat_database WHERE datname = current_database()`,
    );
    const row = rows[0]!;
    return {
      commits: Number(row.c),
      sessions: Number(row.s),
      rowsRead: Number(row.r),
      rowsWritten: Number(row.w),
    };
  } finally {
    await client.end();
  }
}

/** CHECKWALL_BENCH_LOGS: the lag's p99 and max in each 10 s of the window, by location, to <dir>/lag.tsv. */
function lagTimeline(
  rows: ReadonlyArray<{ location_id: string; due_at: string; lag: string | null }>,
  from: number,
  dir: string,
) {
  const buckets = new Map<string, number[]>();
  for (const r of rows) {
    if (r.lag === null) continue;
    const k = `${Math.floor((Number(r.due_at) - from) / 10_000) * 10}\t${r.location_id}`;
    let lags = buckets.get(k);
    if (!lags) buckets.set(k, (lags = []));
    lags.push(Number(r.lag));
  }
  const lines = [...buckets]
    .sort(([a], [b]) => parseInt(a, 10) - parseInt(b, 10) || a.localeCompare(b))
    .map(([k, lags]) => {
      lags.sort((a, b) => a - b);
      const p99 = lags[Math.min(lags.length - 1, Math.floor(lags.length * 0.99))]!;
      return `${k}\t${lags.length}\t${p99}\t${lags[lags.length - 1]}`;
    });
  writeFileSync(join(dir, 'lag.tsv'), `second\tlocation\truns\tp99 ms\tmax ms\n${lines.join('\n')}\n`);
}

/** CHECKWALL_BENCH_LOGS: PostgreSQL's statements by total time, to <dir>/statements.tsv. */
export async function topStatements(db: string, dir: string): Promise<void> {
  const client = new pg.Client({ connectionString: db });
  await client.connect();
  try {
    await client.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    const { rows } = await client.query<Record<'ms' | 'calls' | 'rows' | 'query', string>>(
      `SELECT round(total_exec_time) AS ms, calls, rows, regexp_replace(query, '\\s+', ' ', 'g') AS query
       FROM pg_stat_statements ORDER BY total_exec_time DESC LIMIT 40`,
    );
    const lines = rows.map((r) => `${r.ms}\t${r.calls}\t${r.rows}\t${r.query.slice(0, 400)}`);
    writeFileSync(join(dir, 'statements.tsv'), `ms\tcalls\trows\tquery\n${lines.join('\n')}\n`);
  } finally {
    await client.end();
  }
}
