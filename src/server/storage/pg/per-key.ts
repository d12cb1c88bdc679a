// Reads asked for many keys at once, as one statement: a cold start reads about
// ten things for each check, and one round trip each made an instance's start
// long (each result stored then waited behind those reads; BENCHMARKS.md,
// "Storage, runners, HTTP").
import type pg from 'pg';
import { batched } from '../batched.js';
import { columnsOf, rows, unnestArgs } from './db.js';

/**
 * The query of one key, run for the calls of a moment together (batched.ts) by a
 * lateral join over their parameters. `sql` reads its key's parameters as k.p1,
 * k.p2, … (of the given types); `order` orders one key's rows (they come back to
 * its call in that order).
 */
export function perKey<P extends unknown[], R extends pg.QueryResultRow>(
  pool: pg.Pool,
  types: readonly string[],
  sql: string,
  order?: string,
): (...params: P) => Promise<R[]> {
  const names = types.map((_, i) => `p${i + 1}`).join(', ');
  const arrays = unnestArgs(types, 2);
  const statement = `SELECT k.i AS "key_", r.* FROM unnest($1::int[], ${arrays}) AS k(i, ${names})
    CROSS JOIN LATERAL (${sql}) r ORDER BY k.i${order ? `, ${order}` : ''}`;
  const run = batched(
    async (calls: P[]) => {
      const params = columnsOf(
        calls.map((call, i) => [i, ...call]),
        types.length + 1,
      );
      const found = await rows<R & { key_: number }>(pool, statement, params);
      const answers = calls.map((): R[] => []);
      for (const row of found) {
        const key = row.key_;
        delete (row as { key_?: number }).key_;
        answers[key]!.push(row);
      }
      return answers;
    },
    { max: 100, inFlight: 2 },
  );
  return (...params) => run(params);
}
