// Several instances sweep reminders at once (issue 12): a reminder is counted and
// queued by whichever sweep comes first; a second sweep planned from the same count
// writes nothing. Run on every storage (test/helpers/storages.ts).
import { afterEach, describe, expect, it } from 'vitest';
import type { NewNotification, Storage } from '../../../src/server/storage/types.js';
import { allStorages, openAlertRow } from '../../helpers/storages.js';

const A = 'account-a';
const T0 = Date.parse('2026-11-23T10:00:00.000Z');
const MIN = 60_000;

const alert = openAlertRow('al1', 'c1', T0);

const notice = (id: string, channelId: number): NewNotification => ({
  id,
  channelId,
  checkId: 'c1',
  alertId: 'al1',
  event: 'reminder',
  status: 'pending',
  payload: { checkName: 'API' },
});

describe.each(allStorages())('reminders on $name', ({ open }) => {
  let s: Storage | undefined;
  afterEach(() => s?.close());

  it('counts and queues a reminder once when two sweeps planned it from the same count', async () => {
    s = await open();
    const made = await s.createChannel(
      A,
      { type: 'EMAIL', name: 'mail', config: { address: 'a@b.co' } },
      5,
      T0,
    );
    if (!made.ok) throw new Error('no channel');
    const channel = made.channel.id;
    await s.applyAlertChange(A, { checkId: 'c1', at: T0, openAlert: alert, notifications: [] });
    const reminder = (id: string) => ({
      checkId: 'c1',
      at: T0 + 30 * MIN,
      remindAlert: 'al1',
      remindersSent: 0,
      notifications: [notice(id, channel)],
    });
    await Promise.all([s.applyAlertChange(A, reminder('first')), s.applyAlertChange(A, reminder('second'))]);
    expect((await s.openAlert(A, 'c1'))!.remindersSent).toBe(1);
    const queued = await s.listNotifications({ accountId: A, from: 0, to: T0 * 2, offset: 0, limit: 10 });
    expect(queued.items.map((n) => n.event)).toEqual(['reminder']);
    expect(queued.total).toBe(1);
    // The next reminder, planned from the new count, goes out.
    await s.applyAlertChange(A, { ...reminder('third'), at: T0 + 60 * MIN, remindersSent: 1 });
    expect((await s.openAlert(A, 'c1'))!.remindersSent).toBe(2);
  });
});
