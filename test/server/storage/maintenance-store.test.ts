// Maintenance windows as stored (issue 33), the same on SQLite and PostgreSQL: kept
// whole, replaced, erased; and how far hold ends were paged for (docs/alerts.md).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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
});
