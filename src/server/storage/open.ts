// Which storage a --db value (or CHECKWALL_DATABASE_URL) means: a file path or
// :memory: is SQLite, the embedded default; postgres:// or postgresql:// is
// PostgreSQL. Any other URL is refused naming only its scheme: the rest may hold a password.
import type { PgStorage } from './pg/index.js';
import { describePgUrl } from './pg/url.js';
import { openSqliteStorage, type SqliteOptions } from './sqlite/index.js';
import type { Storage } from './types.js';

const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]+):/;
const PG_SCHEMES = new Set(['postgres', 'postgresql']);

export type DbKind = 'sqlite' | 'postgres';

/** The kind of database `spec` names; throws a one-line reason (naming `source`) when it names none. */
export function dbKind(spec: string, source = '--db'): DbKind {
  if (spec === '') return fail(`${source} needs a file path, :memory: or a postgres:// URL`);
  if (spec === ':memory:') return 'sqlite';
  const scheme = SCHEME.exec(spec)?.[1];
  if (scheme === undefined) return 'sqlite';
  if (PG_SCHEMES.has(scheme.toLowerCase())) return 'postgres';
  return fail(
    `${source} takes a file path, :memory: or a postgres:// URL; "${scheme}:…" is not a database checkwall can use`,
  );
}

function fail(message: string): never {
  throw new Error(message);
}

/** What may be printed of `spec`: the path, or PostgreSQL's host:port/database (never the password). */
export function describeDb(spec: string): string {
  return dbKind(spec) === 'postgres' ? `PostgreSQL ${describePgUrl(spec)}` : spec;
}

export const isPgStorage = (storage: Storage): storage is PgStorage =>
  (storage as Partial<PgStorage>).kind === 'postgres';

/** Opens (and migrates) the storage `spec` names; `sqlite` is for a SQLite file. */
export async function openStorage(spec: string, sqlite: SqliteOptions = {}): Promise<Storage | PgStorage> {
  // pg loads only for PostgreSQL.
  if (dbKind(spec) === 'postgres') return (await import('./pg/index.js')).openPgStorage(spec);
  // The SQLite opener may answer at once or with a promise: either awaits.
  return await Promise.resolve(openSqliteStorage(spec, sqlite));
}
