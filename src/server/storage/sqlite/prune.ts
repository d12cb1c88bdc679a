// Retention in SQLite, a chunk at a time. An hour of results of a large account
// is many rows, and deleting them in one transaction stood the thread that ran it
// (then the API's) still for seconds every hour; each minute's runs were a pause
// too. Each chunk is a transaction of at most PRUNE_CHUNK rows, made where the run
// queue's writes are (the writer thread, sqlite/write-thread.ts), so offers and
// reports go between chunks: more work in all, none of it a pause longer than a
// chunk (BENCHMARKS.md, "Storage, runners, HTTP").
import type Database from 'better-sqlite3';
import type { HistoryCutoffs } from '../history.js';

export const PRUNE_CHUNK = 500;

export interface Chunk {
  /** Rows deleted from results (what a prune reports). */
  counted: number;
  /** False once a chunk found fewer rows than it could delete: nothing old is left. */
  more: boolean;
}

export interface PruneWrites {
  /**
   * Up to `limit` rows from the tables retention keeps, in order: older than
   * `before`, or than `history`'s cut-offs for incidents and roll-ups.
   */
  pruneChunk(before: number, history: HistoryCutoffs, limit: number): Chunk;
  /** Up to `limit` runs due before `before` (the run queue's own cut-off). */
  pruneRunsChunk(before: number, finishedBefore: number, limit: number): Chunk;
}

export function createPruneWrites(db: Database.Database): PruneWrites {
  const chunkOf = (table: string, old: string) =>
    db.prepare(`DELETE FROM ${table} WHERE rowid IN (SELECT rowid FROM ${table} WHERE ${old} LIMIT ?)`);
  // Open incidents and alerts stay whatever their age: the check has not recovered.
  // A pending notification is still owed: only finished ones go. Screenshots before
  // their results, as one transaction deleted them.
  // Incidents and roll-ups are history (docs/status-page.md): they go by historyDays, not with the results.
  type Cut = (before: number, history: HistoryCutoffs) => number;
  const raw: Cut = (before) => before;
  const steps: Array<[Database.Statement, Cut]> = [
    [chunkOf('alert_events', 'at < ?'), raw],
    [chunkOf('incidents', 'ended_at IS NOT NULL AND ended_at < ?'), (_, h) => h.before],
    [chunkOf('check_alerts', 'resolved_at IS NOT NULL AND resolved_at < ?'), raw],
    [chunkOf('alert_notifications', "status != 'pending' AND created_at < ?"), raw],
    [chunkOf('screenshots', 'started_at < ?'), raw],
    // An end is claimed so that one instance pages for it; the sweep looks back minutes, not days.
    [chunkOf('maintenance_ends', 'ends_at < ?'), raw],
    // Claims of hold ends are read only for ends past holdEndsProcessed, which moves on within a tick.
    [chunkOf('hold_pages', 'ends_at < ?'), raw],
    // A location's outages are history, as incidents are; one whose end is not yet paged for stays.
    [
      chunkOf('location_outages', 'ended_at IS NOT NULL AND end_paged = 1 AND ended_at < ?'),
      (_, h) => h.before,
    ],
    // Ended maintenance windows are history too; a deleted one's tombstone is read within seconds.
    [chunkOf('maintenance_windows', 'last_end < ?'), (_, h) => h.before],
    [chunkOf('maintenance_windows', 'deleted = 1 AND updated_at < ?'), raw],
    [chunkOf('history_hourly', 'bucket_start < ?'), (_, h) => h.hourlyBefore],
    [chunkOf('history_daily', 'bucket_start < ?'), (_, h) => h.before],
  ];
  const results = chunkOf('results', 'started_at < ?');
  const runs = db.prepare(
    `DELETE FROM runs WHERE rowid IN (SELECT rowid FROM runs WHERE due_at < ?
       AND (triggered_by = 'schedule' OR coalesce(completed_at, due_at) < ?) LIMIT ?)`,
  );

  const pruneChunk = db.transaction((before: number, history: HistoryCutoffs, limit: number): Chunk => {
    let left = limit;
    for (const [step, cut] of steps) if (left > 0) left -= step.run(cut(before, history), left).changes;
    const counted = left > 0 ? results.run(before, left).changes : 0;
    return { counted, more: left - counted === 0 };
  });
  const pruneRunsChunk = db.transaction((before: number, finishedBefore: number, limit: number): Chunk => {
    const counted = runs.run(before, finishedBefore, limit).changes;
    return { counted, more: counted === limit };
  });
  return {
    pruneChunk: (before, history, limit) => pruneChunk.immediate(before, history, limit),
    pruneRunsChunk: (before, finishedBefore, limit) =>
      pruneRunsChunk.immediate(before, finishedBefore, limit),
  };
}

/**
 * Calls `chunk` until nothing old is left, or `stopped` says the storage is closing
 * (the next prune goes on from there), yielding between chunks; the rows it counted.
 */
export async function inChunks(
  chunk: (limit: number) => Promise<Chunk>,
  stopped: () => boolean,
): Promise<number> {
  let total = 0;
  for (;;) {
    const { counted, more } = await chunk(PRUNE_CHUNK);
    total += counted;
    if (!more || stopped()) return total;
    // On the calling thread (no writer thread), requests go between chunks too.
    await new Promise((resolve) => setImmediate(resolve));
  }
}
