// SQLite storage through better-sqlite3: WAL, foreign keys, migrations.
// The only module tree that writes SQL.
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { migrate } from './schema.js';
import { createAccountStore } from './account.js';
import { createAlertStore } from './alerts.js';
import { createAuditStore } from './audit.js';
import { createChannelStore } from './channels.js';
import { createResultStore } from './results.js';
import { createCertificateReads } from './certificates.js';
import { createHistoryStore } from './history.js';
import type { HistoryCutoffs } from '../history.js';
import { inChunks } from './prune.js';
import { createRunStore } from './runs.js';
import { checkpointOffThread, type Checkpointer } from './checkpoint.js';
import { configureConnection } from './connection.js';
import { createWrites, writeOffThread, WRITER_ENTRY, type WritesAway } from './write-thread.js';
import { createScreenshotStore } from './screenshots.js';
import { createPauseStore } from './pauses.js';
import { createMaintenanceStore } from './maintenance.js';
import { createOutageStore } from './outages.js';
import { promised, type Sync } from '../promised.js';
import type { AlertChange, Storage } from '../types.js';

export class StorageError extends Error {
  override readonly name = 'StorageError';
}

export interface SqliteOptions {
  /** Where the one warning about a database others can read goes; stderr by default. */
  warn?: (line: string) => void;
  /**
   * The writer thread's entry (sqlite/write-thread.ts). Default: the one beside the
   * module, when it is there. A `:memory:` database is written on the calling
   * thread: no thread can share it.
   */
  writer?: URL;
}

export function openSqliteStorage(path: string, opts: SqliteOptions = {}): Storage {
  let db: Database.Database | undefined;
  try {
    const fresh = path !== ':memory:' && prepareFile(path);
    if (!fresh && path !== ':memory:') warnIfOpen(path, opts.warn ?? warnOnStderr);
    db = new Database(path);
    db.pragma('journal_mode = WAL');
    // SQLite gives -wal and -shm the database file's mode; said again in case they were left by another.
    if (fresh)
      for (const file of [`${path}-wal`, `${path}-shm`]) if (existsSync(file)) chmodSync(file, 0o600);
    configureConnection(db);
    migrate(db);
  } catch (error) {
    db?.close();
    throw new StorageError(`cannot open the database ${path}: ${(error as Error).message}`);
  }
  if (path === ':memory:') return withStores(db, undefined, undefined);
  return withStores(db, checkpointOffThread(db, path), { path, entry: opts.writer ?? WRITER_ENTRY });
}

// The database holds webhook URLs with their tokens and the channels' signing secrets:
// a new one is made for its owner only (directory 0700, files 0600).
/** Creates the directory and an empty database file, owner only; false when the file was there. */
function prepareFile(path: string): boolean {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  try {
    closeSync(openSync(path, 'wx', 0o600));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/** An existing database the operator left readable by others: said once, not changed. */
function warnIfOpen(path: string, warn: (line: string) => void): void {
  const open = [path, `${path}-wal`, `${path}-shm`].filter(
    (file) => existsSync(file) && (statSync(file).mode & 0o077) !== 0,
  );
  if (open.length > 0)
    warn(
      `warning: the database ${path} is readable by other users (it holds webhook URLs and signing secrets): chmod 600 ${open.join(' ')}`,
    );
}

const warnOnStderr = (line: string) => void process.stderr.write(`checkwall: ${line}\n`);

/**
 * What answers a promise of its own: the run queue's writes and retention (made on the
 * writer thread, offers and reports waiting for others to commit with), close for the threads.
 */
type Apart =
  | 'offerRun'
  | 'completeRun'
  | 'claimRuns'
  | 'recordRunnerSeen'
  | 'withdrawRuns'
  | 'releaseRuns'
  | 'requestRun'
  | 'skipStaleRuns'
  | 'prune'
  | 'pruneRuns'
  | 'close';

function withStores(
  db: Database.Database,
  checkpointer: Checkpointer | undefined,
  writer: { path: string; entry: URL } | undefined,
): Storage {
  const account = createAccountStore(db);
  const { writeChange, ...alerts } = createAlertStore(db);
  // The incident, the alert and the outbox rows of one status change: all or nothing.
  const apply = db.transaction((accountId: string, change: AlertChange) => {
    if (change.openIncident) account.openIncident(accountId, change.openIncident);
    if (change.closeIncidentAt !== undefined)
      account.closeIncident(accountId, change.checkId, change.closeIncidentAt);
    writeChange(accountId, change);
  });
  const results = createResultStore(db);
  const screenshots = createScreenshotStore(db);
  const here = promised<WritesAway>(createWrites(db));
  const thread = writer && writeOffThread(writer.path, here, writer.entry);
  const writes = thread?.writes ?? here;
  const {
    offerRun,
    completeRun,
    claimRuns,
    recordRunnerSeen,
    withdrawRuns,
    releaseRuns,
    requestRun,
    skipStaleRuns,
    ...runs
  } = createRunStore(db, writes);
  const sync: Omit<Sync<Storage>, Apart> = {
    ...results,
    ...createCertificateReads(db),
    ...createHistoryStore(db),
    ...screenshots,
    ...runs,
    ...account,
    ...createChannelStore(db),
    ...createAuditStore(db),
    ...alerts,
    ...createPauseStore(db),
    ...createMaintenanceStore(db),
    ...createOutageStore(db),
    applyAlertChange: (accountId: string, change: AlertChange) => apply.immediate(accountId, change),
  };
  // The run queue's writes made before close are committed before it (offers and reports wait up to 20 ms).
  const pending = new Set<Promise<unknown>>();
  const tracked =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> => {
      const answer = call(...args);
      pending.add(answer);
      answer.then(
        () => pending.delete(answer),
        () => pending.delete(answer),
      );
      return answer;
    };
  let closing = false;
  async function close() {
    closing = true;
    await Promise.allSettled([...pending]);
    await thread?.stop();
    await checkpointer?.stop();
    db.close();
  }
  return {
    ...promised<Omit<Storage, Apart>>(sync),
    offerRun: tracked(offerRun),
    completeRun: tracked(completeRun),
    claimRuns: tracked(claimRuns),
    recordRunnerSeen: tracked(recordRunnerSeen),
    withdrawRuns: tracked(withdrawRuns),
    releaseRuns: tracked(releaseRuns),
    requestRun: tracked(requestRun),
    skipStaleRuns: tracked(skipStaleRuns),
    // A prune of an hour at 10,000 checks is many chunks: close does not wait for them all.
    prune: tracked((before: number, history: HistoryCutoffs = { before, hourlyBefore: before }) =>
      inChunks(
        (limit) => writes.pruneChunk(before, history, limit),
        () => closing,
      ),
    ),
    pruneRuns: tracked((before: number, finishedBefore = before) =>
      inChunks(
        (limit) => writes.pruneRunsChunk(before, finishedBefore, limit),
        () => closing,
      ),
    ),
    close,
  };
}
