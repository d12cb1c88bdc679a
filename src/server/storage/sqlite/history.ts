// Roll-ups as read (history.ts): they are written with the results (results.ts).
import type Database from 'better-sqlite3';
import { bucketOfRow, historyParams, historySql, type HistoryBucket, type HistoryQuery } from '../history.js';

export function createHistoryStore(db: Database.Database) {
  // Named: the read names the window's start twice.
  const read = (accountId: string, checkId: string, q: HistoryQuery, whole: boolean) =>
    db
      .prepare(historySql(q.granularity, { locationId: q.locationId, whole }, (n) => `@p${n}`))
      .all(Object.fromEntries(historyParams(accountId, checkId, q).map((v, i) => [`p${i + 1}`, v]))) as Array<
      Record<string, unknown>
    >;
  return {
    history: (accountId: string, checkId: string, q: HistoryQuery): HistoryBucket[] =>
      read(accountId, checkId, q, false).map((row) => bucketOfRow(row, q.locationId ?? null)),
    historyTotals: (accountId: string, checkId: string, q: HistoryQuery): HistoryBucket =>
      bucketOfRow(read(accountId, checkId, q, true)[0] ?? { start: q.from }, q.locationId ?? null),
  };
}
