// A statement whose LIMIT is written into its SQL, one per limit value.
//
// SQLite (3.53, as better-sqlite3 12 builds it) plans a statement for the value
// bound to its LIMIT, so a statement with `LIMIT ?` is prepared again every time
// it runs: about 10 µs on a busy thread, 0.3-1.7 ms on one that has slept (the
// dispatcher's look at the outbox every 2 s was most of it; docs/decisions.md,
// "## 42", ninth round). A limit in the SQL is planned once. The limits a
// statement meets come from code and config, a few values; past `KEPT` of them
// a limit goes to one statement with `LIMIT ?`, correct and prepared each run.
import type Database from 'better-sqlite3';

const KEPT = 8;

export interface Limited {
  all(limit: number, ...params: unknown[]): unknown[];
  get(limit: number, ...params: unknown[]): unknown;
}

/** `sql(limit)` is the text for one limit: a number's digits, or `?` (bound after the other parameters). */
export function limited(db: Database.Database, sql: (limit: string) => string): Limited {
  const kept = new Map<number, Database.Statement>();
  let shared: Database.Statement | undefined;
  function pick(limit: number, params: unknown[]): [Database.Statement, unknown[]] {
    if (!Number.isSafeInteger(limit) || limit < 0) throw new RangeError(`a limit of ${limit} rows`);
    let statement = kept.get(limit);
    if (!statement && kept.size < KEPT) kept.set(limit, (statement = db.prepare(sql(String(limit)))));
    if (statement) return [statement, params];
    shared ??= db.prepare(sql('?'));
    return [shared, [...params, limit]];
  }
  return {
    all: (limit, ...params) => {
      const [statement, args] = pick(limit, params);
      return statement.all(...args);
    },
    get: (limit, ...params) => {
      const [statement, args] = pick(limit, params);
      return statement.get(...args);
    },
  };
}
