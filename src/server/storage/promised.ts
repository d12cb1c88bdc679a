// The SQLite stores answer at once (better-sqlite3 is synchronous); the Storage
// interface answers promises (PostgreSQL cannot answer at once). Each store is
// written and type-checked as the synchronous twin of its part of Storage, and
// `promised` turns it into that part: every method runs whole when called (a
// transaction never spans an await) and its answer, or its error, is a settled promise.

/** The synchronous twin of an interface whose methods answer promises. */
export type Sync<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => Promise<infer R> ? (...args: A) => R : T[K];
};

/** The twin of a synchronous interface whose methods answer promises (Sync's inverse). */
export type Promised<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<R> : T[K];
};

export function promised<T extends object>(sync: Sync<T>): T {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(sync)) {
    if (typeof value !== 'function') {
      out[name] = value;
      continue;
    }
    const fn = value as (...args: unknown[]) => unknown;
    out[name] = (...args: unknown[]) => {
      try {
        return Promise.resolve(fn(...args));
      } catch (error) {
        return Promise.reject(error as Error);
      }
    };
  }
  return out as T;
}
