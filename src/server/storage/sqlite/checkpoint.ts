// The WAL is copied back into the database file (a checkpoint) on a thread of
// its own. By default SQLite does it inside the commit that takes the WAL past
// 1,000 pages, on the thread that commits: under a steady stream of results, a
// copy and an fsync every few seconds on the main thread, which requests and
// stored results waited behind (BENCHMARKS.md, bench:service honesty, "the main
// thread's long tasks"). Here the service's connection never checkpoints; a
// worker thread with a connection of its own looks every 5 s whether anything
// was committed since its last look and, if so, runs a PASSIVE checkpoint (it
// waits for no reader or writer). The WAL holds at most about 5 s of writes; a
// page written many times in between is copied once, and an idle service copies
// nothing. The thread wakes for nothing else: a look every second woke it five
// times as often for the same checkpoints, about 0.5 ms of CPU a second on the
// bench machine (BENCHMARKS.md, "bench:threads, fewer wake-ups at a few runs a
// second").
//
// Should that thread fail or stop (a full disk fails its checkpoint), the
// service's connection checkpoints again as by default, so the WAL never grows
// without bound, and a new thread is tried after 30 s, then after twice as
// long each time it fails again, up to 10 min. The checkpoints go back to a
// thread once one has succeeded there.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import { systemClock, type Clock, type Timer } from '../../../domain/clock.js';

const LOOK_EVERY_MS = 5_000;
const SQLITE_DEFAULT_AUTOCHECKPOINT = 1_000;
const RETRY_FIRST_MS = 30_000;
const RETRY_MAX_MS = 600_000;

// CommonJS run by `eval`: the bundle (scripts/bundle.js) has no file for it, and
// better-sqlite3 stays in node_modules, found by the path resolved here.
// `PRAGMA data_version` changes when another connection commits; reading it is a
// look at the WAL index, no I/O. The first checkpoint is made at once and said:
// it is what shows the thread can write.
const THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path, { fileMustExist: true });
db.pragma('busy_timeout = 1000');
const version = db.prepare('PRAGMA data_version').pluck();
const copy = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
let seen = version.get();
copy.run();
parentPort.postMessage('checkpointed');
const timer = setInterval(() => {
  const v = version.get();
  if (v === seen) return;
  seen = v;
  copy.run();
}, workerData.lookMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export interface Checkpointer {
  /** Stops the thread, its connection closed (before the service's, which checkpoints last). */
  stop(): Promise<void>;
}

export interface CheckpointOptions {
  /** The clock the retries after a failed thread wait on. */
  clock?: Clock;
  /** Where a failure and a return are said; stderr by default. */
  log?: (line: string, error?: unknown) => void;
}

const logOnStderr = (line: string, error?: unknown) =>
  error === undefined ? console.error(line) : console.error(line, error);

/** Checkpoints `db` (a WAL database at `path`) on a thread of its own from now on. */
export function checkpointOffThread(
  db: Database.Database,
  path: string,
  { clock = systemClock, log = logOnStderr }: CheckpointOptions = {},
): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const mainCheckpoints = (on: boolean) => {
    if (db.open) db.pragma(`wal_autocheckpoint = ${on ? SQLITE_DEFAULT_AUTOCHECKPOINT : 0}`);
  };
  mainCheckpoints(false);
  let stopping = false;
  let retryMs = RETRY_FIRST_MS;
  let failures = 0;
  let retry: Timer | undefined;
  let current: { worker: Worker; exited: Promise<void> } | undefined;

  function failed(error: unknown) {
    current = undefined;
    if (stopping) return;
    mainCheckpoints(true);
    failures++;
    const next = `a new one is tried in ${retryMs / 1000} s`;
    if (failures === 1)
      log(`checkwall: the checkpoint thread failed; the main thread checkpoints again (${next})`, error);
    else log(`checkwall: the checkpoint thread failed again: ${(error as Error).message} (${next})`);
    retry = clock.setTimeout(start, retryMs).unref();
    retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
  }

  function start() {
    retry = undefined;
    const worker = new Worker(THREAD, {
      eval: true,
      workerData: { driver, path, lookMs: LOOK_EVERY_MS },
      // Its own heap is small: it only asks SQLite to copy pages.
      resourceLimits: { maxOldGenerationSizeMb: 16 },
    });
    worker.unref();
    let error: unknown = new Error('the checkpoint thread exited');
    worker.on('error', (e) => (error = e));
    worker.once('message', () => {
      if (failures === 0 || stopping) return;
      mainCheckpoints(false);
      failures = 0;
      retryMs = RETRY_FIRST_MS;
      log('checkwall: checkpoints are made on their thread again');
    });
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    current = { worker, exited };
    void exited.then(() => failed(error));
  }

  start();
  let stopped: Promise<void> | undefined;
  return {
    stop() {
      stopping = true;
      clock.clearTimeout(retry);
      stopped ??= (async () => {
        if (!current) return;
        const { worker, exited } = current;
        // Kept alive while it closes: awaited with nothing else left (a process's last
        // await), an unreferenced thread would let the event loop end before it did.
        worker.ref();
        worker.postMessage('stop');
        await exited;
      })();
      return stopped;
    },
  };
}
