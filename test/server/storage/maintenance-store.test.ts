// Maintenance windows as stored (issue 33), the same on SQLite and PostgreSQL: kept
// whole, replaced, erased, and each occurrence's end claimed once.
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

  it('claims an occurrence end once', async () => {
    expect(await s.claimMaintenanceEnd('account-a', 'w1', T0)).toBe(true);
    expect(await s.claimMaintenanceEnd('account-a', 'w1', T0)).toBe(false);
    expect(await s.claimMaintenanceEnd('account-a', 'w1', T0 + 1)).toBe(true);
    expect(await s.claimMaintenanceEnd('account-b', 'w1', T0)).toBe(true);
  });

  it('lets go of the claims of ends before the retention cut-off, and keeps the later ones', async () => {
    const day = 86_400_000;
    await s.claimMaintenanceEnd('account-a', 'w1', T0);
    await s.claimMaintenanceEnd('account-a', 'w1', T0 + day);
    await s.prune(T0 + 1);
    // Claimable again: the row is gone (no sweep looks back that far to claim it).
    expect(await s.claimMaintenanceEnd('account-a', 'w1', T0)).toBe(true);
    expect(await s.claimMaintenanceEnd('account-a', 'w1', T0 + day)).toBe(false);
  });
});
