// The outbox's leases after a kill (docs/alerts.md, "Delivery"): a lease held by an instance
// that is gone is let go at once, not when it runs out; a live instance keeps its own,
// however long its attempt. SQLite: the next start (one instance per file) lets go of
// every lease but its own. PostgreSQL: a lease whose holder's session lock is free.
import { afterEach, describe, expect, it } from 'vitest';
import { openPgStorage } from '../../../src/server/storage/pg/index.js';
import { openSqliteStorage } from '../../../src/server/storage/sqlite/index.js';
import type { Storage } from '../../../src/server/storage/types.js';
import { testPostgres } from '../../helpers/postgres.js';
import { tempDb } from '../../helpers/storages.js';

const A = 'account-a';
const T0 = Date.parse('2026-11-28T10:00:00.000Z');
const LEASE = 50_000;
const postgres = testPostgres();

const opened: Storage[] = [];
afterEach(async () => {
  await Promise.allSettled(opened.splice(0).map((s) => s.close()));
});

async function withPending(s: Storage): Promise<void> {
  const made = await s.createChannel(
    A,
    { type: 'WEBHOOK', name: 'hook', config: { url: 'https://x.example/h', method: 'POST' } },
    10,
    T0,
  );
  if (!made.ok) throw new Error('no channel');
  const n = { channelId: made.channel.id, alertId: null, event: 'failure' as const };
  // Of two checks: one check's notices to a channel are claimed one at a time (outbox-order.test.ts).
  await s.enqueueNotification(A, { id: 'n1', ...n, checkId: 'c1', status: 'pending', payload: {} }, T0);
  await s.enqueueNotification(A, { id: 'n2', ...n, checkId: 'c2', status: 'pending', payload: {} }, T0);
}

const claimed = async (s: Storage, at: number) =>
  (await s.claimNotifications(at, LEASE, 10, [])).map((r) => r.id).sort();

describe('outbox leases after a kill', () => {
  it('SQLite: the next start lets go of the leases in the file, and keeps its own', async () => {
    const path = tempDb();
    const before = openSqliteStorage(path);
    await withPending(before);
    expect(await claimed(before, T0)).toEqual(['n1', 'n2']);
    expect(await before.releaseOrphanedLeases()).toBe(0);
    await before.close();

    const after = openSqliteStorage(path);
    opened.push(after);
    expect(await claimed(after, T0 + 1)).toEqual([]);
    expect(await after.releaseOrphanedLeases()).toBe(2);
    expect(await claimed(after, T0 + 2)).toEqual(['n1', 'n2']);
    // Its own leases stay, however long the attempts take.
    expect(await after.releaseOrphanedLeases()).toBe(0);
    expect(await claimed(after, T0 + 3)).toEqual([]);
  });

  it('PostgreSQL: a live instance keeps its leases; once its session is gone another takes them at once', async () => {
    const url = await postgres.freshDatabase();
    const [one, two] = await Promise.all([
      openPgStorage(url, { poolSize: 2 }),
      openPgStorage(url, { poolSize: 2 }),
    ]);
    opened.push(one, two);
    // Each instance's listening session holds its lock (the service always listens).
    await Promise.all([one.changes.listen(() => undefined), two.changes.listen(() => undefined)]);
    await withPending(one);
    expect(await claimed(one, T0)).toEqual(['n1', 'n2']);
    // Alive, if stalled: its leases stay.
    expect(await two.releaseOrphanedLeases()).toBe(0);
    expect(await claimed(two, T0 + 1)).toEqual([]);
    await one.close();
    expect(await two.releaseOrphanedLeases()).toBe(2);
    expect(await claimed(two, T0 + 2)).toEqual(['n1', 'n2']);
    expect(await two.releaseOrphanedLeases()).toBe(0);
  });
});
