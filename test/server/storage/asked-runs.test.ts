// Issue 32 in the run queue, against the Storage interface only, on every storage:
// runs asked for (one pending per check x location, kept and read back by id), runs
// not started late (skipped, with why), and a person's pauses.
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../../src/server/storage/sqlite/schema.js';
import { openSqliteStorage } from '../../../src/server/storage/sqlite/index.js';
import type { RunKey, RunRequest, Storage } from '../../../src/server/storage/types.js';
import { sampleResult } from '../../helpers/samples.js';
import { allStorages, tempDb } from '../../helpers/storages.js';

const FACTORIES = allStorages().map((f): [string, () => Promise<Storage>] => [f.name, f.open]);

const A = 'account-a';
const T0 = Date.parse('2026-11-23T10:00:00.000Z');
const PERIOD = 5_000;
const LEASE = 30_000;
const key = (checkId: string, dueAt = T0, locationId = 'far'): RunKey => ({
  accountId: A,
  checkId,
  locationId,
  dueAt,
});
const asking = (checkId: string, over: Partial<RunRequest> = {}): RunRequest => ({
  place: { accountId: A, checkId, locationId: 'far' },
  triggeredBy: 'api',
  staleAt: T0 + 60_000,
  ...over,
});

describe.each(FACTORIES)('runs asked for and stale runs: %s', (_name, open) => {
  let s: Storage;
  beforeEach(async () => {
    s = await open();
  });
  afterEach(() => s.close());

  it('skips the older due runs of a check x location and runs only the newest, saying why', async () => {
    // A runner away for three periods: three runs offered on the grid, none taken.
    for (const i of [0, 1, 2])
      await s.offerRun(key('c1', T0 + i * PERIOD), T0 - 1_000, undefined, T0 + (i + 1) * PERIOD);
    // Another check's single due run is not touched.
    await s.offerRun(key('c2', T0 + 2 * PERIOD), T0 - 1_000, undefined, T0 + 3 * PERIOD);
    const back = T0 + 2 * PERIOD + 500;
    const claimed = await s.claimRuns(A, 'far', 'runner-1', back, LEASE, 10);
    // Runs due at one instant come in no set order.
    expect(claimed.map((r) => [r.checkId, r.dueAt]).sort()).toEqual([
      ['c1', T0 + 2 * PERIOD],
      ['c2', T0 + 2 * PERIOD],
    ]);
    const skipped = await s.skipStaleRuns(A, 'far', back);
    expect(skipped.map((r) => [r.checkId, r.dueAt, r.triggeredBy]).sort()).toEqual([
      ['c1', T0, 'schedule'],
      ['c1', T0 + PERIOD, 'schedule'],
    ]);
    expect(skipped.every((r) => /within half its period/.test(r.reason))).toBe(true);
    // Not stale yet, but a newer one is due: superseded.
    await s.offerRun(key('c3', T0), T0, undefined, T0 + PERIOD);
    await s.offerRun(key('c3', T0 + 1_000), T0, undefined, T0 + 1_000 + PERIOD);
    expect(await s.claimRuns(A, 'far', 'runner-1', T0 + 1_500, LEASE, 10)).toMatchObject([
      { checkId: 'c3', dueAt: T0 + 1_000 },
    ]);
    expect(await s.skipStaleRuns(A, 'far', T0 + 1_500)).toMatchObject([
      { checkId: 'c3', dueAt: T0, reason: 'a newer run of the check at this location was due' },
    ]);
    expect(await s.skipStaleRuns(A, 'far', T0 + 1_500)).toEqual([]);
  });

  it('keeps one pending run asked for per check x location, then a new one once it finished', async () => {
    const first = await s.requestRun(asking('c1'), T0);
    expect(first).toMatchObject({
      created: true,
      run: { triggeredBy: 'api', completedAt: null, token: null },
    });
    const again = await s.requestRun(asking('c1', { triggeredBy: 'manual' }), T0 + 10);
    expect(again).toMatchObject({ created: false, run: { id: first.run.id } });
    // Claimed by a runner like a scheduled run, with its trigger.
    const [claimed] = await s.claimRuns(A, 'far', 'runner-1', T0 + 20, LEASE, 10);
    expect(claimed).toMatchObject({ id: first.run.id, triggeredBy: 'api' });
    expect((await s.requestRun(asking('c1'), T0 + 30)).run.id).toBe(first.run.id);
    const result = sampleResult(first.run.id, { checkId: 'c1', status: 'failed', triggeredBy: 'api' });
    expect(await s.completeRun(first.run.id, 'runner-1', A, result)).toBe(true);
    const [done] = await s.findRuns([first.run.id, 'unknown']);
    expect(done).toMatchObject({ id: first.run.id, ok: false, skipped: null, triggeredBy: 'api' });
    expect(done!.completedAt).not.toBeNull();
    const next = await s.requestRun(asking('c1'), T0 + 40);
    expect(next.created).toBe(true);
    expect(next.run.id).not.toBe(first.run.id);
  });

  it('skips a run asked for that no runner took in time, and one asked for with no runner at all', async () => {
    const waited = await s.requestRun(asking('c1', { staleAt: T0 + 1_000 }), T0);
    expect(await s.claimRuns(A, 'far', 'runner-1', T0 + 1_000, LEASE, 10)).toEqual([]);
    // A new ask after it lapsed is a new run; the old one says why it never ran.
    const fresh = await s.requestRun(asking('c1'), T0 + 1_000);
    expect(fresh.created).toBe(true);
    const [lapsed] = await s.findRuns([waited.run.id]);
    expect(lapsed).toMatchObject({ skipped: 'no runner of its location took it in time' });
    const none = await s.requestRun(
      asking('c2', { skipped: 'no runner is connected for its remote location' }),
      T0,
    );
    expect(none.run).toMatchObject({ skipped: 'no runner is connected for its remote location' });
    expect(none.run.completedAt).not.toBeNull();
  });

  it('marks runs asked for skipped when their check is withdrawn, keeps them a day, and holds a local one at once', async () => {
    const local = await s.requestRun(
      asking('c1', {
        place: { accountId: A, checkId: 'c1', locationId: 'near' },
        claim: { token: 'me', leaseMs: LEASE },
      }),
      T0,
    );
    expect(local.run).toMatchObject({ token: 'me', leaseUntil: T0 + LEASE, attempt: 1 });
    const waiting = await s.requestRun(asking('c2'), T0);
    await s.offerRun(key('c2', T0 + 1), T0);
    expect(await s.withdrawRuns([{ accountId: A, checkId: 'c2', locationId: 'far' }], T0 + 5)).toBe(2);
    const [withdrawn] = await s.findRuns([waiting.run.id]);
    expect(withdrawn).toMatchObject({ skipped: 'the check was removed, paused or left the location' });
    // Scheduled runs go an hour after they were due; runs asked for a day after they finished.
    await s.pruneRuns(T0 + 3_600_000, T0 - 1);
    expect(await s.findRuns([waiting.run.id])).toHaveLength(1);
    await s.pruneRuns(T0 + 3_600_000, T0 + 3_600_000);
    expect(await s.findRuns([waiting.run.id])).toHaveLength(0);
  });

  it('keeps a pause until it is resumed; a second pause keeps the first', async () => {
    expect(await s.pauses()).toEqual([]);
    const first = await s.pauseCheck({ accountId: A, checkId: 'c1', by: 'ops', since: T0 });
    expect(first).toEqual({ accountId: A, checkId: 'c1', by: 'ops', since: T0 });
    expect(await s.pauseCheck({ accountId: A, checkId: 'c1', by: 'other', since: T0 + 5 })).toEqual(first);
    expect(await s.pauses()).toEqual([first]);
    expect(await s.resumeCheck(A, 'c1')).toBe(true);
    expect(await s.resumeCheck(A, 'c1')).toBe(false);
    expect(await s.pauses()).toEqual([]);
  });
});

describe('the migration of issue 32', () => {
  it('upgrades a SQLite file with queued runs: they read as scheduled, never skipped', async () => {
    const path = tempDb();
    const old = new Database(path);
    // The migrations before issue 32's (later ones are appended after it).
    const issue32 = MIGRATIONS.findIndex((sql) => sql.includes('ALTER TABLE runs ADD COLUMN triggered_by'));
    for (const [i, sql] of MIGRATIONS.slice(0, issue32).entries()) {
      old.exec(sql);
      old.pragma(`user_version = ${i + 1}`);
    }
    old
      .prepare('INSERT INTO runs (id, account_id, check_id, location_id, due_at) VALUES (?, ?, ?, ?, ?)')
      .run('old-run', A, 'c1', 'far', T0);
    old.close();
    const s = openSqliteStorage(path);
    try {
      expect(await s.findRuns(['old-run'])).toMatchObject([
        { id: 'old-run', triggeredBy: 'schedule', skipped: null, ok: null },
      ]);
      expect(await s.claimRuns(A, 'far', 'runner-1', T0 + 60_000, LEASE, 10)).toMatchObject([
        { id: 'old-run' },
      ]);
    } finally {
      await s.close();
    }
  });
});
