// The shared run queue (issue 12), written against the RunQueue interface only:
// one factory per implementation (PostgreSQL joins the list with its own).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunKey, Storage } from '../../../src/server/storage/types.js';
import { sampleResult } from '../../helpers/samples.js';
import { allStorages } from '../../helpers/storages.js';

const FACTORIES = allStorages().map((f): [string, () => Promise<Storage>] => [f.name, f.open]);

const A = 'account-a';
const T0 = Date.parse('2026-11-23T10:00:00.000Z');
const LEASE = 30_000;
const key = (checkId: string, dueAt = T0, locationId = 'far'): RunKey => ({
  accountId: A,
  checkId,
  locationId,
  dueAt,
});
const resultFor = (checkId: string, id: string) =>
  sampleResult(id, { checkId, startedAt: new Date(T0).toISOString() });

describe.each(FACTORIES)('run queue: %s', (_name, open) => {
  let s: Storage;
  beforeEach(async () => {
    s = await open();
  });
  afterEach(() => s.close());

  it('records a due run once: the first offer creates it, later offers get null', async () => {
    const first = await s.offerRun(key('c1'), T0, { token: 'instance-1', leaseMs: LEASE });
    expect(first).toMatchObject({ ...key('c1'), token: 'instance-1', leaseUntil: T0 + LEASE, attempt: 1 });
    expect(await s.offerRun(key('c1'), T0 + 5, { token: 'instance-2', leaseMs: LEASE })).toBeNull();
    expect(await s.offerRun(key('c1'), T0 + 5)).toBeNull();
    // Another due time, check or location is another run.
    expect(await s.offerRun(key('c1', T0 + 60_000), T0)).not.toBeNull();
    expect(await s.offerRun(key('c2'), T0)).not.toBeNull();
    expect(await s.offerRun(key('c1', T0, 'near'), T0)).not.toBeNull();
  });

  it('gives a waiting run to one claimer, oldest due first, within the limit', async () => {
    await s.offerRun(key('c1', T0 + 2), T0);
    await s.offerRun(key('c2', T0 + 1), T0);
    await s.offerRun(key('c3', T0 + 3), T0);
    await s.offerRun(key('c4', T0), T0, { token: 'instance-1', leaseMs: LEASE }); // held: not free
    const [a, b] = await Promise.all([
      s.claimRuns(A, 'far', 'runner-a', T0 + 10, LEASE, 2),
      s.claimRuns(A, 'far', 'runner-b', T0 + 10, LEASE, 2),
    ]);
    expect(a.map((r) => r.checkId)).toEqual(['c2', 'c1']);
    expect(b.map((r) => r.checkId)).toEqual(['c3']);
    expect(a[0]).toMatchObject({ token: 'runner-a', leaseUntil: T0 + 10 + LEASE, attempt: 1 });
    expect(await s.claimRuns(A, 'far', 'runner-c', T0 + 20, LEASE, 10)).toEqual([]);
    expect(await s.claimRuns('other-account', 'far', 'runner-c', T0 + 20, LEASE, 10)).toEqual([]);
  });

  it('gives a run offered ahead of its due time only from that time on', async () => {
    await s.offerRun(key('c1', T0 + 1_000), T0);
    expect(await s.claimRuns(A, 'far', 'runner-a', T0 + 999, LEASE, 5)).toEqual([]);
    const [run] = await s.claimRuns(A, 'far', 'runner-a', T0 + 1_000, LEASE, 5);
    expect(run).toMatchObject({ checkId: 'c1', dueAt: T0 + 1_000, token: 'runner-a' });
  });

  it('gives a run again when its lease runs out, and refuses the first holder late', async () => {
    const offered = await s.offerRun(key('c1'), T0);
    const [held] = await s.claimRuns(A, 'far', 'runner-a', T0, LEASE, 1);
    expect(held!.id).toBe(offered!.id);
    expect(await s.claimRuns(A, 'far', 'runner-b', T0 + LEASE - 1, LEASE, 1)).toEqual([]);
    const [again] = await s.claimRuns(A, 'far', 'runner-b', T0 + LEASE, LEASE, 1);
    expect(again).toMatchObject({ id: held!.id, token: 'runner-b', attempt: 2 });
    expect(await s.completeRun(held!.id, 'runner-a', A, resultFor('c1', 'late'))).toBe(false);
    expect(await s.completeRun(held!.id, 'runner-b', A, resultFor('c1', 'second'))).toBe(true);
    expect(await s.completeRun(held!.id, 'runner-b', A, resultFor('c1', 'twice'))).toBe(false);
    const stored = await s.queryResults({
      accountId: A,
      checkId: 'c1',
      from: 0,
      to: T0 * 2,
      sortBy: 'startedAt',
      sortOrder: 'asc',
      offset: 0,
      limit: 10,
    });
    expect(stored.items.map((r) => r.id)).toEqual(['second']);
    expect(await s.findRun(held!.id)).toMatchObject({ token: 'runner-b', attempt: 2 });
    expect((await s.findRun(held!.id))!.completedAt).not.toBeNull();
    // A completed run is never given again, however old its lease.
    expect(await s.claimRuns(A, 'far', 'runner-c', T0 + 10 * LEASE, LEASE, 1)).toEqual([]);
  });

  it("gives a claim's runs back at once when released, and only that claim's unfinished ones", async () => {
    await s.offerRun(key('c1'), T0);
    await s.offerRun(key('c2', T0 + 1), T0);
    await s.offerRun(key('c3', T0 + 2), T0);
    const taken = await s.claimRuns(A, 'far', 'runner-a:1', T0 + 5, LEASE, 2);
    const [kept] = await s.claimRuns(A, 'far', 'runner-b:1', T0 + 5, LEASE, 2);
    expect(await s.completeRun(taken[0]!.id, 'runner-a:1', A, resultFor('c1', 'done'))).toBe(true);

    const ids = taken.map((r) => r.id);
    // Not another claim's runs, whatever ids it names; a completed run stays completed.
    expect(await s.releaseRuns('runner-a:1', [...ids, kept!.id], T0 + 10)).toBe(1);
    expect(await s.releaseRuns('runner-a:1', ids, T0 + 10)).toBe(0);
    expect(await s.releaseRuns('runner-a:1', [], T0 + 10)).toBe(0);
    // The released run is free at once (no lease to wait out); the other claim's is still held.
    const again = await s.claimRuns(A, 'far', 'runner-c:1', T0 + 10, LEASE, 10);
    expect(again).toEqual([expect.objectContaining({ id: taken[1]!.id, checkId: 'c2', attempt: 2 })]);
    expect(await s.findRun(kept!.id)).toMatchObject({ token: 'runner-b:1', leaseUntil: T0 + 5 + LEASE });
    // What the first claim completed stays complete.
    expect((await s.findRun(taken[0]!.id))!.completedAt).not.toBeNull();
    expect(await s.completeRun(again[0]!.id, 'runner-c:1', A, resultFor('c2', 'second'))).toBe(true);
  });

  it('stores a screenshot with its result, and nothing for an unknown run', async () => {
    const run = await s.offerRun(key('c1'), T0, { token: 'instance-1', leaseMs: LEASE });
    const png = new Uint8Array([137, 80, 78, 71]);
    expect(await s.completeRun(run!.id, 'instance-1', A, resultFor('c1', 'r1'), png)).toBe(true);
    expect([...(await s.screenshot(A, 'c1', 'r1'))!]).toEqual([...png]);
    expect(await s.completeRun('no-such-run', 'instance-1', A, resultFor('c1', 'r2'))).toBe(false);
    expect((await s.latestResult(A, 'c1'))!.id).toBe('r1');
    expect(await s.findRun('no-such-run')).toBeNull();
  });

  it('answers calls made at once each as if made alone (PostgreSQL sends them together)', async () => {
    const keys = Array.from({ length: 150 }, (_, i) => key(`c${i}`));
    // Each key twice at once, the first time held for the first half: created once, by its first offer.
    const offered = await Promise.all(
      keys.flatMap((k, i) => [
        s.offerRun(k, T0, i < 75 ? { token: 'instance-1', leaseMs: LEASE } : undefined),
        s.offerRun(k, T0),
      ]),
    );
    const firsts = offered.filter((_, i) => i % 2 === 0);
    expect(firsts.map((run) => run?.checkId)).toEqual(keys.map((k) => k.checkId));
    expect(offered.filter((_, i) => i % 2 === 1)).toEqual(keys.map(() => null));
    expect(firsts.map((run) => run!.token)).toEqual(keys.map((_, i) => (i < 75 ? 'instance-1' : '')));
    const ids = firsts.map((run) => run!.id);
    // Found at once, with one unknown among them.
    const found = await Promise.all([...ids, 'no-such-run'].map((id) => s.findRun(id)));
    expect(found.map((run) => run?.checkId ?? null)).toEqual([...keys.map((k) => k.checkId), null]);
    const B = 'account-b';
    const other = await s.offerRun({ ...key('c0'), accountId: B }, T0, {
      token: 'instance-1',
      leaseMs: LEASE,
    });
    // Reported at once: the holder's first report of each stored (another account's with
    // them); a second report of one, a stranger's report and an unknown run are refused,
    // each on its own.
    const reports = await Promise.all([
      ...ids.slice(0, 75).map((id, i) => s.completeRun(id, 'instance-1', A, resultFor(`c${i}`, `r${i}`))),
      s.completeRun(ids[0]!, 'instance-1', A, resultFor('c0', 'again')),
      s.completeRun(ids[1]!, 'stranger', A, resultFor('c1', 'stranger')),
      s.completeRun('no-such-run', 'instance-1', A, resultFor('c2', 'nowhere')),
      s.completeRun(other!.id, 'instance-1', B, resultFor('c0', 'b0')),
    ]);
    expect(reports).toEqual([...Array.from({ length: 75 }, () => true), false, false, false, true]);
    expect((await s.latestResult(A, 'c0'))!.id).toBe('r0');
    expect((await s.latestResult(B, 'c0'))!.id).toBe('b0');
    expect((await s.latestResult(A, 'c74'))!.id).toBe('r74');
    expect(await s.latestResult(A, 'c75')).toBeNull();
    expect((await s.findRun(ids[74]!))!.completedAt).not.toBeNull();
    expect((await s.findRun(ids[75]!))!.completedAt).toBeNull();
  });

  it('withdraws the runs of ended check × location pairs that no one holds, and no other', async () => {
    const waiting = await s.offerRun(key('c1', T0 + 1_000), T0); // offered ahead
    const abandoned = await s.offerRun(key('c1', T0 - 60_000), T0 - 60_000);
    await s.claimRuns(A, 'far', 'runner-a', T0 - 60_000, LEASE, 1); // its lease ran out at T0 - 30 s
    const held = await s.offerRun(key('c1', T0 - 1), T0 - 1, { token: 'instance-1', leaseMs: LEASE });
    const done = await s.offerRun(key('c1', T0 - 2), T0 - 2, { token: 'instance-1', leaseMs: LEASE });
    expect(await s.completeRun(done!.id, 'instance-1', A, resultFor('c1', 'done'))).toBe(true);
    const elsewhere = await s.offerRun(key('c1', T0 + 1_000, 'near'), T0);
    const other = await s.offerRun(key('c2', T0 + 1_000), T0);

    const gone = await s.withdrawRuns([{ accountId: A, checkId: 'c1', locationId: 'far' }], T0);
    expect(gone).toBe(2);
    expect(await s.findRun(waiting!.id)).toBeNull();
    expect(await s.findRun(abandoned!.id)).toBeNull();
    // A run in flight finishes, and what is done stays; other pairs are untouched.
    for (const kept of [held, done, elsewhere, other]) expect(await s.findRun(kept!.id)).not.toBeNull();
    expect(await s.completeRun(held!.id, 'instance-1', A, resultFor('c1', 'held'))).toBe(true);
    expect(await s.withdrawRuns([], T0)).toBe(0);
  });

  it('prunes runs due before the cut-off, complete or not', async () => {
    await s.offerRun(key('c1', T0), T0);
    await s.offerRun(key('c2', T0 + 1000), T0);
    expect(await s.pruneRuns(T0 + 1)).toBe(1);
    expect((await s.claimRuns(A, 'far', 'r', T0 + 1000, LEASE, 10)).map((r) => r.checkId)).toEqual(['c2']);
  });

  it('keeps the newest contact of each runner', async () => {
    await s.recordRunnerSeen({ accountId: A, locationId: 'far', runnerId: 'r1', lastSeenAt: T0 + 5 });
    await s.recordRunnerSeen({ accountId: A, locationId: 'far', runnerId: 'r1', lastSeenAt: T0 });
    await s.recordRunnerSeen({ accountId: A, locationId: 'far', runnerId: 'r2', lastSeenAt: T0 + 1 });
    const seen = (await s.runnersSeen()).sort((x, y) => x.runnerId.localeCompare(y.runnerId));
    expect(seen).toEqual([
      { accountId: A, locationId: 'far', runnerId: 'r1', lastSeenAt: T0 + 5 },
      { accountId: A, locationId: 'far', runnerId: 'r2', lastSeenAt: T0 + 1 },
    ]);
  });
});
