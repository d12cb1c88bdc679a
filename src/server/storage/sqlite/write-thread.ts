// The run queue's writes on a thread of their own, and retention's chunks
// (sqlite/prune.ts). Under many checks the offers and reports (each batch one
// transaction: SQLite's B-tree and WAL work) were a large share of the
// service's main thread, in slices that a request waited behind
// (BENCHMARKS.md, "Storage, runners, HTTP"). A worker thread (sqlite-writer.ts) with a connection of its
// own to the file makes them now; the main thread keeps its connection for
// reads and the rare other writes. Under WAL a read never waits for the writer;
// a write of either waits for the other's transaction (busy_timeout), and each
// is short. A call answers once its transaction has committed, so what the
// main thread reads after it sees it. Should the thread fail or stop, the
// writes out and every write from then on are made on the main thread, as with
// `:memory:`, which no second connection can share.
import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import type { Promised } from '../promised.js';
import { createPruneWrites, type PruneWrites } from './prune.js';
import { createResultStore } from './results.js';
import { createRunWrites, type RunWrites } from './runs.js';
import { createScreenshotStore } from './screenshots.js';

/** What the writer thread makes: the run queue's writes and retention's chunks. */
export type Writes = RunWrites & PruneWrites;

/** The writes over `db`: the writer thread's connection, or the service's own when there is no thread. */
export const createWrites = (db: Database.Database): Writes => ({
  ...createRunWrites(db, {
    insertResult: createResultStore(db).insertResult,
    insertScreenshot: createScreenshotStore(db).insertScreenshot,
  }),
  ...createPruneWrites(db),
});
export type WritesAway = Promised<Writes>;
type Op = keyof Writes;
const OPS: readonly Op[] = [
  'offer',
  'complete',
  'claim',
  'seen',
  'withdraw',
  'release',
  'request',
  'skipStale',
  'pruneChunk',
  'pruneRunsChunk',
];

export type ToWriter = { op: Op; id: number; args: unknown[] } | { op: 'stop' };
export type FromWriter =
  { id: number; value: unknown } | { id: number; error: { message: string; code?: string } };

export interface WriteThread {
  writes: WritesAway;
  /** Answers what is out, then closes the thread's connection (before the service's). */
  stop(): Promise<void>;
}

/** The writer thread's entry: sqlite-writer.js beside this module, in dist/ and in the bundle. */
export const WRITER_ENTRY = new URL('./sqlite-writer.js', import.meta.url);

/**
 * Makes `here`'s writes on a thread of their own over the file at `path`, from
 * `entry`. Undefined when there is no entry to start (running from source).
 */
export function writeOffThread(
  path: string,
  here: WritesAway,
  entry = WRITER_ENTRY,
): WriteThread | undefined {
  if (!existsSync(entry)) return undefined;
  const worker = new Worker(entry, { workerData: { path } });
  interface Out {
    op: Op;
    args: unknown[];
    resolve(value: unknown): void;
    reject(error: Error): void;
  }
  const out = new Map<number, Out>();
  let nextId = 1;
  let failed = false;
  let stopping = false;
  // The thread keeps the process alive only while a write is out.
  worker.unref();
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  const makeHere = (call: Out) =>
    (here[call.op] as (...args: unknown[]) => Promise<unknown>)(...call.args).then(call.resolve, call.reject);

  worker.on('message', (answer: FromWriter) => {
    const call = out.get(answer.id);
    out.delete(answer.id);
    if (out.size === 0 && !stopping) worker.unref();
    if (!call) return;
    if ('error' in answer) call.reject(Object.assign(new Error(answer.error.message), answer.error));
    else call.resolve(answer.value);
  });
  // The writes out are made again here. One the thread had committed before it
  // failed then finds its run taken: an offer answers null (the run is swept when
  // its lease ends), a report false (its result is stored).
  const fail = (why: Error) => {
    if (failed || stopping) return;
    failed = true;
    console.error(
      'checkwall: the storage writer thread failed; writes are made on the main thread again',
      why,
    );
    const calls = [...out.values()];
    out.clear();
    for (const call of calls) void makeHere(call);
  };
  worker.on('error', fail);
  void exited.then(() => {
    if (!stopping) return fail(new Error('the storage writer thread exited'));
    for (const call of out.values()) call.reject(new Error('the storage is closed'));
    out.clear();
  });

  const away =
    <K extends Op>(op: K) =>
    (...args: Parameters<Writes[K]>): Promise<ReturnType<Writes[K]>> =>
      new Promise((resolve, reject) => {
        const call: Out = { op, args, resolve: resolve as (value: unknown) => void, reject };
        if (failed || stopping) return void makeHere(call);
        const id = nextId++;
        if (out.size === 0) worker.ref();
        out.set(id, call);
        const message: ToWriter = { op, id, args };
        worker.postMessage(message);
      });

  return {
    writes: Object.fromEntries(OPS.map((op) => [op, away(op)])) as unknown as WritesAway,
    async stop() {
      if (stopping || failed) return;
      stopping = true;
      worker.ref();
      const stop: ToWriter = { op: 'stop' };
      worker.postMessage(stop);
      await exited;
    },
  };
}
