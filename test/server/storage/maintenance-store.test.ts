// Maintenance windows as stored (issue 33), the same on SQLite and PostgreSQL: kept
// whole, replaced, erased; and how far hold ends were paged for (docs/alerts.md).
// Issue 43: read incrementally (updated_at, tombstones), by readers on a fake clock.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createStoredReader, READ_OVERLAP_MS } from '../../../src/server/maintenance/stored-reader.js';
import { createFakeClock } from '../../helpers/fake-clock.js';
import type { Storage, StoredWindow } from '../../../src/server/storage/types.js';
import { allStorages } from '../../helpers/storages.js';

const FACTORIES = allStorages().map((f): [string, () => Promise<Storage>] => [f.name, f.open]);
const T0 = Date.parse('2027-03-20T01:00:00.000Z');

const window = (id: string, accountId = 'account-a'): StoredWindow => ({
  accountId,
  id,
  name: 'nightly',
  reason: 'backup',
  createdBy: 'ops',
  createdAt: T0,
  scope: { groups: ['core'], tags: ['db'] },
  startsAt: T0,
  endsAt: T0 + 3_600_000,
  repeat: { frequency: 'weekly', daysOfWeek: ['mon', 'sat'], timezone: 'Europe/Berlin', until: '2027-12-31' },
  mode: 'pause',
  excludeFromAvailability: true,
  endedEarlyAt: null,
  occurrenceEnds: { [String(T0)]: T0 + 60_000 },
});

describe.each(FACTORIES)('maintenance windows: %s', (_name, open) => {
  let s: Storage;
  beforeEach(async () => {
    s = await open();
  });
  afterEach(async () => {
    await s.close();
  });

  it('keeps a window whole, replaces it by id and account, and erases it', async () => {
    expect(await s.maintenanceWindows()).toEqual([]);
    await s.saveMaintenanceWindow(window('w1'));
    await s.saveMaintenanceWindow(window('w1', 'account-b'));
    expect(await s.maintenanceWindows()).toHaveLength(2);
    const ended = { ...window('w1'), endedEarlyAt: T0 + 5 };
    await s.saveMaintenanceWindow(ended);
    const all = await s.maintenanceWindows();
    expect(all.find((w) => w.accountId === 'account-a')).toEqual(ended);
    expect(await s.deleteMaintenanceWindow('account-a', 'w1')).toBe(true);
    expect(await s.deleteMaintenanceWindow('account-a', 'w1')).toBe(false);
    expect((await s.maintenanceWindows()).map((w) => w.accountId)).toEqual(['account-b']);
  });

  it('keeps how far hold ends were looked at, per kind, moving forward only', async () => {
    expect(await s.holdEndsProcessed('maintenance')).toBeNull();
    await s.markHoldEndsProcessed('maintenance', T0);
    await s.markHoldEndsProcessed('maintenance', T0 - 5_000);
    await s.markHoldEndsProcessed('location', T0 + 9);
    expect(await s.holdEndsProcessed('maintenance')).toBe(T0);
    await s.markHoldEndsProcessed('maintenance', T0 + 3_600_000);
    expect(await s.holdEndsProcessed('maintenance')).toBe(T0 + 3_600_000);
    expect(await s.holdEndsProcessed('location')).toBe(T0 + 9);
  });

  it('reads the rows changed since a time, a deleted window as a tombstone, revived by a save', async () => {
    await s.saveMaintenanceWindow(window('w1'), T0);
    await s.saveMaintenanceWindow(window('w2'), T0 + 10);
    expect((await s.maintenanceWindowChanges(T0 + 5)).map((c) => c.window)).toEqual([window('w2')]);
    expect(await s.deleteMaintenanceWindow('account-a', 'w1', T0 + 20)).toBe(true);
    expect(await s.deleteMaintenanceWindow('account-a', 'w1', T0 + 21)).toBe(false);
    expect(await s.maintenanceWindowChanges(T0 + 15)).toEqual([
      { accountId: 'account-a', id: 'w1', window: null },
    ]);
    expect((await s.maintenanceWindows()).map((w) => w.id)).toEqual(['w2']);
    await s.saveMaintenanceWindow(window('w1'), T0 + 30);
    expect((await s.maintenanceWindows()).map((w) => w.id).sort()).toEqual(['w1', 'w2']);
    expect(await s.maintenanceWindowChanges(T0 + 31)).toEqual([]);
  });

  it("a reader sees another instance's save and delete at its next read, and reads nothing when nothing changed", async () => {
    const clock = createFakeClock(T0);
    const changes = vi.spyOn(s, 'maintenanceWindowChanges');
    // Two instances on one database; the writer's clock runs 10 s behind the reader's.
    const reader = createStoredReader(s, clock);
    await s.saveMaintenanceWindow(window('w1'), T0 - 60_000);
    await reader.read();
    expect([...reader.windows().keys()]).toHaveLength(1);
    await clock.advance(1_000);
    await s.saveMaintenanceWindow(window('w2'), clock.now() - 10_000);
    await reader.read();
    expect([...reader.windows().values()].map((w) => w.id).sort()).toEqual(['w1', 'w2']);
    await clock.advance(1_000);
    await s.deleteMaintenanceWindow('account-a', 'w1', clock.now() - 10_000);
    await reader.read();
    expect([...reader.windows().values()].map((w) => w.id)).toEqual(['w2']);
    // Within the overlap the last changes are read again; past it, with nothing changed, no row.
    await clock.advance(READ_OVERLAP_MS);
    await reader.read();
    await clock.advance(1_000);
    await reader.read();
    const returned = await Promise.all(changes.mock.results.map((r) => r.value as Promise<unknown[]>));
    expect(returned.map((rows) => rows.length)).toEqual([1, 2, 2, 0]);
    expect([...reader.windows().values()].map((w) => w.id)).toEqual(['w2']);
  });

  it('prunes ended windows after historyDays and tombstones after the retention cut-off', async () => {
    const DAY = 86_400_000;
    const once = (id: string): StoredWindow => ({ ...window(id), repeat: null, occurrenceEnds: {} });
    await s.saveMaintenanceWindow(once('old'), T0); // ended at T0 + 1 h
    await s.saveMaintenanceWindow({ ...window('early'), endedEarlyAt: T0 + 5 }, T0); // repeating, ended early
    await s.saveMaintenanceWindow({ ...once('recent'), endsAt: T0 + 40 * DAY }, T0);
    await s.saveMaintenanceWindow(
      { ...window('forever'), repeat: { frequency: 'daily', timezone: 'UTC' } },
      T0,
    );
    await s.saveMaintenanceWindow(once('gone'), T0);
    await s.deleteMaintenanceWindow('account-a', 'gone', T0 + 10);
    // The cut-offs: raw rows (tombstones) before T0 + 30 d, history (ended windows) before T0 + 1 d.
    await s.prune(T0 + 30 * DAY, { before: T0 + DAY, hourlyBefore: T0 + DAY });
    expect((await s.maintenanceWindows()).map((w) => w.id).sort()).toEqual(['forever', 'recent']);
    expect(await s.maintenanceWindowChanges(0)).toHaveLength(2);
  });
});
