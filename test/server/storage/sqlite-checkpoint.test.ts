// The WAL's checkpoints run on a thread of their own (storage/sqlite-checkpoint.ts):
// the connection that commits never copies pages back, and when the thread cannot
// run, it does again, so the WAL never grows without bound.
import { existsSync, renameSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { checkpointOffThread } from '../../../src/server/storage/sqlite/checkpoint.js';
import { openSqliteStorage } from '../../../src/server/storage/sqlite/index.js';
import { sampleResult } from '../../helpers/samples.js';
import { tempDb } from '../../helpers/storages.js';
import { createFakeClock } from '../../helpers/fake-clock.js';

const open: Database.Database[] = [];
afterEach(() => {
  for (const db of open.splice(0)) db.close();
  vi.restoreAllMocks();
});

function walDatabase(path: string) {
  const db = new Database(path);
  open.push(db);
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE t (n INTEGER PRIMARY KEY, body TEXT)');
  return db;
}

const autocheckpoint = (db: Database.Database) => db.pragma('wal_autocheckpoint', { simple: true });

describe('checkpoints off the main thread', () => {
  it('copies the WAL into the file from its thread while the connection that commits never does', async () => {
    const path = tempDb();
    const db = walDatabase(path);
    const checkpointer = checkpointOffThread(db, path);
    expect(autocheckpoint(db)).toBe(0);
    const before = statSync(path).size;
    // About 4 MB of pages: past the 1,000 pages at which SQLite would checkpoint in the commit.
    const insert = db.prepare('INSERT INTO t (body) VALUES (?)');
    db.transaction(() => {
      for (let i = 0; i < 2_000; i++) insert.run('x'.repeat(2_000));
    })();
    await vi.waitFor(() => expect(statSync(path).size).toBeGreaterThan(before + 3_000_000), {
      timeout: 10_000,
      interval: 50,
    });
    await checkpointer.stop();
    // Stopped on purpose: the connection is left as it was told.
    expect(autocheckpoint(db)).toBe(0);
    expect(db.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 2_000 });
  });

  it('gives checkpoints back to the connection when its thread fails, and says so', async () => {
    const path = tempDb();
    const db = walDatabase(path);
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    // The thread opens the file only if it exists: this one does not.
    const checkpointer = checkpointOffThread(db, `${path}.gone`);
    await vi.waitFor(() => expect(autocheckpoint(db)).toBe(1_000), { timeout: 10_000, interval: 50 });
    expect(String(logged.mock.calls[0]?.[0])).toContain('the checkpoint thread failed');
    await checkpointer.stop();
  });

  it('gives checkpoints back to a thread once one succeeds, retrying after 30 s and twice as long each time', async () => {
    const path = tempDb();
    const db = walDatabase(path);
    const clock = createFakeClock();
    const lines: string[] = [];
    // The file away (as a full disk, the thread cannot do its work) while the service's connection keeps it open.
    renameSync(path, `${path}.away`);
    const checkpointer = checkpointOffThread(db, path, { clock, log: (line) => void lines.push(line) });
    await vi.waitFor(() => expect(autocheckpoint(db)).toBe(1_000), { timeout: 10_000, interval: 50 });
    expect(lines).toEqual([expect.stringContaining('a new one is tried in 30 s')]);
    await clock.advance(29_999);
    expect(lines).toHaveLength(1);
    await clock.advance(1);
    await vi.waitFor(() => expect(lines).toHaveLength(2), { timeout: 10_000, interval: 50 });
    expect(lines[1]).toContain('failed again');
    expect(lines[1]).toContain('a new one is tried in 60 s');
    expect(autocheckpoint(db)).toBe(1_000);
    renameSync(`${path}.away`, path);
    await clock.advance(59_999);
    expect(lines).toHaveLength(2);
    await clock.advance(1);
    await vi.waitFor(() => expect(autocheckpoint(db)).toBe(0), { timeout: 10_000, interval: 50 });
    expect(lines[2]).toBe('checkwall: checkpoints are made on their thread again');
    await checkpointer.stop();
    expect(clock.pending()).toBe(0);
  });

  it('leaves no WAL behind once the storage is closed, and every row stored', async () => {
    const path = tempDb();
    const storage = openSqliteStorage(path);
    const results = Array.from({ length: 500 }, (_, i) => sampleResult(`r${i}`));
    await storage.insertResults('a', results);
    await storage.close();
    expect(existsSync(`${path}-wal`)).toBe(false);
    const again = openSqliteStorage(path);
    const found = await again.queryResults({
      accountId: 'a',
      checkId: 'c1',
      from: 0,
      to: Date.now() + 86_400_000,
      sortBy: 'startedAt',
      sortOrder: 'desc',
      offset: 0,
      limit: 1,
    });
    expect(found.total).toBe(500);
    await again.close();
  });
});

describe('closing SQLite', () => {
  it('commits the offers and reports made just before close (they wait to commit together)', async () => {
    const storage = openSqliteStorage(':memory:');
    const key = { accountId: 'a', checkId: 'c1', locationId: 'eu-west', dueAt: 60_000 };
    const offered = storage.offerRun(key, Date.now(), { token: 't', leaseMs: 60_000 });
    const closed = storage.close();
    await expect(offered).resolves.toMatchObject({ ...key, token: 't', attempt: 1 });
    await closed;
  });
});
