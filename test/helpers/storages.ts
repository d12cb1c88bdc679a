// Every Storage implementation the shared suite (test/server/storage.test.ts)
// runs against. Each factory opens a fresh, empty storage for one test; the suite
// closes it. Another implementation joins the suite with one entry here.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPgStorage } from '../../src/server/storage/pg/index.js';
import { openSqliteStorage } from '../../src/server/storage/sqlite/index.js';
import type { AlertRow, Storage } from '../../src/server/storage/types.js';
import { testPostgres } from './postgres.js';
import { sqliteWriterEntry } from './run-worker.js';

export interface StorageFactory {
  name: string;
  open: () => Promise<Storage>;
}

/** A path in a new temporary directory, for a SQLite file of one test. */
export const tempDb = () => join(mkdtempSync(join(tmpdir(), 'checkwall-storage-')), 'suite.db');

/**
 * Call at the top of a test file: it starts a throw-away PostgreSQL cluster for
 * the file (test/helpers/postgres.ts), so every implementation runs one suite.
 */
export function allStorages(): StorageFactory[] {
  const postgres = testPostgres();
  return [
    // A file's run queue writes are made on the writer thread (sqlite-write-thread.ts), :memory:'s in the caller's.
    {
      name: 'SQLite file',
      open: async () => openSqliteStorage(tempDb(), { writer: await sqliteWriterEntry() }),
    },
    { name: 'SQLite :memory:', open: () => Promise.resolve(openSqliteStorage(':memory:')) },
    {
      name: 'PostgreSQL',
      open: async () => openPgStorage(await postgres.freshDatabase(), { poolSize: 4 }),
    },
  ];
}

/** An open, unacknowledged alert of a check, as a status change writes it. */
export const openAlertRow = (id: string, checkId: string, openedAt: number): AlertRow => ({
  id,
  checkId,
  incidentId: null,
  openedAt,
  resolvedAt: null,
  acknowledgedAt: null,
  remindersSent: 0,
  lastNotifiedAt: openedAt,
});
