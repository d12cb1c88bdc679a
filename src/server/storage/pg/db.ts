// The little the PostgreSQL stores share: a pool that reads bigint and numeric as
// numbers, rows of a query, and a transaction on one client.
import pg from 'pg';

const INT8 = 20;
const NUMERIC = 1700;

/**
 * Epoch ms, counts and sums come back as bigint or numeric, which pg gives as
 * strings; every one of ours fits a double. Per pool, so pg's global parsers
 * (another library's) are left alone.
 */
const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8 || oid === NUMERIC
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig['getTypeParser'],
};

export function createPool(connectionString: string, max = 10): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    max,
    types,
    application_name: 'checkwall',
    // An unreachable server fails the start in seconds rather than hanging it.
    connectionTimeoutMillis: 10_000,
  });
  // An idle client whose connection drops: the pool discards it and the next
  // query connects anew (or fails, and says so); unhandled, it would end the process.
  pool.on('error', () => undefined);
  return pool;
}

export type Queryable = pg.Pool | pg.PoolClient;

/**
 * The arguments of an `unnest` over columns of these types, their parameters from
 * `$from` on: `$n::type[]`, but a `json` column is one JSON array of its documents
 * (unnestParams), taken apart in order by the database.
 */
export const unnestArgs = (types: readonly string[], from = 1): string =>
  types
    .map((type, i) =>
      type === 'json'
        ? `ARRAY(SELECT e FROM json_array_elements($${i + from}::json) WITH ORDINALITY AS j(e, n) ORDER BY n)`
        : `$${i + from}::${type}[]`,
    )
    .join(', ');

/**
 * Columns (columnsOf) as the parameters of unnestArgs: a `json` column's documents,
 * JSON text each, joined into one JSON array that the driver sends as it is: as a
 * `json[]`, the driver escapes every quote and backslash of every document into an
 * array literal, a large share of an instance's allocations (BENCHMARKS.md, "Why the
 * code is as it is").
 */
export const unnestParams = (columns: unknown[][], types: readonly string[]): unknown[] =>
  columns.map((column, i) => (types[i] === 'json' ? `[${(column as string[]).join(',')}]` : column));

/** Rows as one array per column: the parameters of an `unnest($1::type[], $2::type[], …)`. */
export function columnsOf(rowsOf: readonly (readonly unknown[])[], width: number): unknown[][] {
  const out: unknown[][] = Array.from({ length: width }, () => []);
  for (const row of rowsOf) row.forEach((value, i) => out[i]!.push(value));
  return out;
}

export async function rows<R extends pg.QueryResultRow>(
  q: Queryable,
  sql: string,
  params: readonly unknown[] = [],
): Promise<R[]> {
  return (await q.query<R>(sql, params as unknown[])).rows;
}

export async function first<R extends pg.QueryResultRow>(
  q: Queryable,
  sql: string,
  params: readonly unknown[] = [],
): Promise<R | undefined> {
  return (await rows<R>(q, sql, params))[0];
}

/** Rows the statement changed (UPDATE, DELETE, INSERT). */
export async function changed(q: Queryable, sql: string, params: readonly unknown[] = []): Promise<number> {
  return (await q.query(sql, params as unknown[])).rowCount ?? 0;
}

/** fn on one client between BEGIN and COMMIT; ROLLBACK when it throws. */
export async function transaction<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  // A client whose ROLLBACK failed (its connection dropped) is destroyed, not pooled.
  let broken = false;
  try {
    await client.query('BEGIN');
    const out = await fn(client);
    await client.query('COMMIT');
    return out;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {
      broken = true;
    });
    throw error;
  } finally {
    client.release(broken);
  }
}
