// The WAL is copied back into the database file (a checkpoint) on a thread of
// its own. By default SQLite does it inside the commit that takes the WAL past
// 1,000 pages, on the thread that commits: under a steady stream of results, a
// copy and an fsync every few seconds on the main thread, which requests and
// stored results waited behind (BENCHMARKS.md, bench:service honesty, "the main
// thread's long tasks"). Here the service's connection never checkpoints; a
// worker thread with a connection of its own runs a PASSIVE checkpoint (it waits
// for no reader or writer) every second. Should that thread fail or stop, the
// service's connection checkpoints again as by default: the WAL never grows
// without bound.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';

const CHECKPOINT_EVERY_MS = 1_000;
const SQLITE_DEFAULT_AUTOCHECKPOINT = 1_000;

// CommonJS run by `eval`: the bundle (scripts/bundle.js) has no file for it, and
// better-sqlite3 stays in node_modules, found by the path resolved here.
const THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path, { fileMustExist: true });
db.pragma('busy_timeout = 1000');
const timer = setInterval(() => db.pragma('wal_checkpoint(PASSIVE)'), workerData.everyMs);
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

/** Checkpoints `db` (a WAL database at `path`) on a thread of its own from now on. */
export function checkpointOffThread(db: Database.Database, path: string): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  db.pragma('wal_autocheckpoint = 0');
  let stopping = false;
  const worker = new Worker(THREAD, {
    eval: true,
    workerData: { driver, path, everyMs: CHECKPOINT_EVERY_MS },
    // Its own heap is small: it only asks SQLite to copy pages.
    resourceLimits: { maxOldGenerationSizeMb: 16 },
  });
  worker.unref();
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.on('error', (error) => {
    if (!stopping)
      console.error('checkwall: the checkpoint thread failed; the main thread checkpoints again', error);
  });
  void exited.then(() => {
    if (!stopping && db.open) db.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_AUTOCHECKPOINT}`);
  });
  return {
    async stop() {
      if (stopping) return exited;
      stopping = true;
      // Kept alive while it closes: awaited with nothing else left (a process's last
      // await), an unreferenced thread would let the event loop end before it did.
      worker.ref();
      worker.postMessage('stop');
      return exited;
    },
  };
}
