// The run queue's writes to a SQLite file on a thread of their own
// (sqlite-write-thread.ts), against a real file: made there, answered once
// committed (the service's own connection reads them), and made on the calling
// thread again when the thread cannot start or goes away.
import Database from 'better-sqlite3';
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { migrate } from '../../../src/server/storage/sqlite/schema.js';
import { openSqliteStorage } from '../../../src/server/storage/sqlite/index.js';
import { configureConnection } from '../../../src/server/storage/sqlite/connection.js';
import { createRunStore } from '../../../src/server/storage/sqlite/runs.js';
import { promised } from '../../../src/server/storage/promised.js';
import {
  createWrites,
  writeOffThread,
  type WritesAway,
  type WriteThread,
} from '../../../src/server/storage/sqlite/write-thread.js';
import { sqliteWriterEntry } from '../../helpers/run-worker.js';
import { sampleResult } from '../../helpers/samples.js';
import { tempDb } from '../../helpers/storages.js';

const A = 'account-a';
const T0 = Date.parse('2026-11-23T10:00:00.000Z');
const key = (checkId: string) => ({ accountId: A, checkId, locationId: 'far', dueAt: T0 });

/** The service's side of a file: its connection, migrated, and its own (in-thread) writes. */
function serviceSide() {
  const path = tempDb();
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  configureConnection(db);
  migrate(db);
  const here = promised<WritesAway>(createWrites(db));
  return { path, db, here };
}

/** In-thread writes that count what they are asked to make. */
function counted(here: WritesAway) {
  const made: string[] = [];
  const writes = Object.fromEntries(
    Object.entries(here).map(([op, write]) => [
      op,
      (...args: unknown[]) => (made.push(op), (write as (...a: unknown[]) => unknown)(...args)),
    ]),
  ) as unknown as WritesAway;
  return { made, writes };
}

describe('the SQLite writer thread', () => {
  const open: Array<{ db: Database.Database; thread: WriteThread | undefined }> = [];
  afterEach(async () => {
    for (const { db, thread } of open.splice(0)) {
      await thread?.stop();
      db.close();
    }
    vi.restoreAllMocks();
  });

  it('makes offers, claims, reports and contacts there; the service thread reads each once answered', async () => {
    const { path, db, here } = serviceSide();
    const { made, writes } = counted(here);
    const thread = writeOffThread(path, writes, await sqliteWriterEntry());
    open.push({ db, thread });
    expect(thread).toBeDefined();
    const runs = createRunStore(db, thread!.writes);

    const offered = await runs.offerRun(key('c1'), T0, { token: 'instance-1', leaseMs: 30_000 });
    expect(runs.findRun(offered!.id)).toMatchObject({ ...key('c1'), token: 'instance-1', completedAt: null });
    expect(await runs.offerRun(key('c1'), T0)).toBeNull();

    await runs.offerRun(key('c2'), T0);
    const [claimed] = await runs.claimRuns(A, 'far', 'runner-a', T0, 30_000, 5);
    expect(claimed).toMatchObject({ checkId: 'c2', token: 'runner-a', attempt: 1 });
    expect(runs.findRun(claimed!.id)).toMatchObject({ token: 'runner-a', leaseUntil: T0 + 30_000 });

    const result = sampleResult('r-1', { checkId: 'c2', startedAt: new Date(T0).toISOString() });
    expect(await runs.completeRun(claimed!.id, 'runner-a', A, result)).toBe(true);
    expect(await runs.completeRun(claimed!.id, 'runner-a', A, result)).toBe(false);
    expect(runs.findRun(claimed!.id)!.completedAt).not.toBeNull();
    expect(db.prepare('SELECT id FROM results').all()).toEqual([{ id: 'r-1' }]);

    await runs.recordRunnerSeen({ accountId: A, locationId: 'far', runnerId: 'r1', lastSeenAt: T0 });
    expect(runs.runnersSeen()).toEqual([{ accountId: A, locationId: 'far', runnerId: 'r1', lastSeenAt: T0 }]);
    // None of it was made on this thread.
    expect(made).toEqual([]);
  });

  it('makes the writes on the calling thread when the thread cannot start, saying so once', async () => {
    const { path, db, here } = serviceSide();
    const { made, writes } = counted(here);
    const broken = join(dirname(path), 'broken-writer.mjs');
    writeFileSync(broken, "throw new Error('no driver here');\n");
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const thread = writeOffThread(path, writes, pathToFileURL(broken));
    open.push({ db, thread });
    const runs = createRunStore(db, thread!.writes);

    const [first, second] = await Promise.all([runs.offerRun(key('c1'), T0), runs.offerRun(key('c2'), T0)]);
    expect(first).not.toBeNull();
    expect(second).not.toBeNull();
    expect(await runs.claimRuns(A, 'far', 'runner-a', T0, 30_000, 5)).toHaveLength(2);
    expect(made).toContain('offer');
    expect(made).toContain('claim');
    expect(logged).toHaveBeenCalledTimes(1);
    expect(String(logged.mock.calls[0]![0])).toContain('the storage writer thread failed');
  });

  it('makes the writes out on the calling thread when the thread goes away before answering', async () => {
    const { path, db, here } = serviceSide();
    const { made, writes } = counted(here);
    // A writer that takes the first message and exits without answering.
    const leaving = join(dirname(path), 'leaving-writer.mjs');
    writeFileSync(
      leaving,
      "import { parentPort } from 'node:worker_threads';\nparentPort.once('message', () => process.exit(3));\n",
    );
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const thread = writeOffThread(path, writes, pathToFileURL(leaving));
    open.push({ db, thread });
    const runs = createRunStore(db, thread!.writes);

    const offered = await runs.offerRun(key('c1'), T0, { token: 'instance-1', leaseMs: 30_000 });
    expect(offered).toMatchObject({ checkId: 'c1', token: 'instance-1' });
    expect(runs.findRun(offered!.id)).not.toBeNull();
    expect(made).toEqual(['offer']);
  });

  it('is not started without an entry to start (running from source)', () => {
    const { path, db, here } = serviceSide();
    open.push({ db, thread: undefined });
    expect(writeOffThread(path, here, pathToFileURL(join(dirname(path), 'missing.js')))).toBeUndefined();
  });
});

describe('SQLite retention', () => {
  it.each([
    [
      'a file, on the writer thread',
      async () => openSqliteStorage(tempDb(), { writer: await sqliteWriterEntry() }),
    ],
    [':memory:, on the calling thread', () => Promise.resolve(openSqliteStorage(':memory:'))],
  ])(
    'on %s, deletes a chunk at a time: an offer made meanwhile is answered before the prune ends',
    async (_where, open) => {
      const storage = await open();
      try {
        const old = Array.from({ length: 20_000 }, (_, i) =>
          sampleResult(`old-${i}`, {
            checkId: `c${i % 50}`,
            startedAt: new Date(T0 - 86_400_000 + i).toISOString(),
          }),
        );
        await storage.insertResults(A, old);
        await storage.insertResults(A, [
          sampleResult('kept', { checkId: 'c1', startedAt: new Date(T0).toISOString() }),
        ]);
        const order: string[] = [];
        const pruned = storage.prune(T0).then((n) => (order.push('prune'), n));
        const offered = storage.offerRun(key('c1'), T0).then((run) => (order.push('offer'), run));
        expect(await pruned).toBe(20_000);
        expect(await offered).not.toBeNull();
        expect(order).toEqual(['offer', 'prune']);
        const left = await storage.queryResults({
          accountId: A,
          checkId: 'c1',
          from: 0,
          to: T0 + 1,
          sortBy: 'startedAt',
          sortOrder: 'desc',
          limit: 10,
          offset: 0,
        });
        expect(left.items.map((r) => r.id)).toEqual(['kept']);
      } finally {
        await storage.close();
      }
    },
  );

  it('stops a prune between chunks when the storage closes; the next prune goes on from there', async () => {
    const path = tempDb();
    const writer = await sqliteWriterEntry();
    const first = openSqliteStorage(path, { writer });
    const old = Array.from({ length: 20_000 }, (_, i) =>
      sampleResult(`old-${i}`, {
        checkId: `c${i % 50}`,
        startedAt: new Date(T0 - 86_400_000 + i).toISOString(),
      }),
    );
    await first.insertResults(A, old);
    const pruned = first.prune(T0);
    await first.close();
    const partway = await pruned;
    expect(partway).toBeGreaterThan(0);
    expect(partway).toBeLessThan(20_000);
    const again = openSqliteStorage(path, { writer });
    try {
      expect(await again.prune(T0)).toBe(20_000 - partway);
    } finally {
      await again.close();
    }
  });
});
