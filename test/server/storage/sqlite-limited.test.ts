// A statement's LIMIT written into its SQL (storage/sqlite/limited.ts): SQLite prepares
// a statement with a bound LIMIT again on every run, so each limit a statement meets
// gets a statement of its own, up to a few, and the rest share one with `LIMIT ?`.
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { limited } from '../../../src/server/storage/sqlite/limited.js';

let db: Database.Database;
afterEach(() => db.close());

function numbers() {
  db = new Database(':memory:');
  db.exec('CREATE TABLE t (n INTEGER PRIMARY KEY, odd INTEGER)');
  const insert = db.prepare('INSERT INTO t VALUES (?, ?)');
  for (let n = 1; n <= 20; n++) insert.run(n, n % 2);
  return vi.spyOn(db, 'prepare');
}

const ns = (rows: unknown) => (rows as Array<{ n: number }>).map((r) => r.n);

describe('limited statements', () => {
  it('prepares each limit once, with the limit in its text, and answers with that many rows', () => {
    const prepare = numbers();
    const odd = limited(db, (limit) => `SELECT n FROM t WHERE odd = ? ORDER BY n LIMIT ${limit}`);
    expect(ns(odd.all(3, 1))).toEqual([1, 3, 5]);
    expect(ns(odd.all(3, 0))).toEqual([2, 4, 6]);
    expect(odd.get(1, 0)).toEqual({ n: 2 });
    expect(ns(odd.all(0, 1))).toEqual([]);
    expect(prepare.mock.calls.map(([sql]) => sql.slice(-7))).toEqual(['LIMIT 3', 'LIMIT 1', 'LIMIT 0']);
  });

  it('past eight limits shares one statement with the limit bound, and still answers right', () => {
    const prepare = numbers();
    const all = limited(db, (limit) => `SELECT n FROM t WHERE n >= @from ORDER BY n LIMIT ${limit}`);
    for (let limit = 1; limit <= 8; limit++) expect(ns(all.all(limit, { from: 5 }))).toHaveLength(limit);
    expect(ns(all.all(9, { from: 5 }))).toEqual([5, 6, 7, 8, 9, 10, 11, 12, 13]);
    expect(ns(all.all(10, { from: 15 }))).toEqual([15, 16, 17, 18, 19, 20]);
    expect(ns(all.all(2, { from: 15 }))).toEqual([15, 16]);
    expect(prepare).toHaveBeenCalledTimes(9);
    expect(prepare.mock.calls.at(-1)![0]).toMatch(/LIMIT \?$/);
  });

  it('refuses a limit that is not a whole number of rows before any SQL is written', () => {
    const prepare = numbers();
    const all = limited(db, (limit) => `SELECT n FROM t LIMIT ${limit}`);
    for (const limit of [-1, 1.5, Number.NaN, 2 ** 60])
      expect(() => all.all(limit)).toThrow(`a limit of ${limit} rows`);
    expect(prepare).not.toHaveBeenCalled();
  });
});
