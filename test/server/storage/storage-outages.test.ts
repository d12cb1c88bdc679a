// The shared storage suite, its location-outage part (docs/alerts.md, "A broken location"):
// an outage declared with its pages once per location, ended with its recovery once, its end
// marked paged; a channel's location subscriptions; pages waiting for a decision, grouped,
// held or released, and never sent by the outbox while they wait (unless no one settles
// them for WAIT_GRACE_MS). Run over every implementation in test/helpers/storages.ts.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WAIT_GRACE_MS } from '../../../src/server/storage/rows.js';
import type { NewNotification, OutageRow, Storage } from '../../../src/server/storage/types.js';
import { allStorages } from '../../helpers/storages.js';

const A = 'account-a';
const T0 = Date.parse('2026-11-28T03:12:00.000Z');

describe.each(allStorages())('storage, location outages: $name', ({ open }) => {
  let s: Storage;
  let hook: number;
  beforeEach(async () => {
    s = await open();
    const made = await s.createChannel(
      A,
      {
        type: 'WEBHOOK',
        name: 'hook',
        config: { url: 'https://x.example/h', method: 'POST' },
        subscriptions: { checks: ['c1'], groups: [], locations: ['ap-south'] },
      },
      10,
      T0,
    );
    hook = made.ok ? made.channel.id : -1;
  });
  afterEach(() => s.close());

  const page = (id: string, over: Partial<NewNotification> = {}): NewNotification => ({
    id,
    channelId: hook,
    checkId: null,
    alertId: null,
    event: 'location',
    status: 'pending',
    payload: { event: 'location', n: id },
    ...over,
  });
  const outage = (id: string): OutageRow => ({
    id,
    accountId: A,
    locationId: 'ap-south',
    since: T0,
    endedAt: null,
    noRunner: false,
    failing: 12,
    total: 14,
    endPaged: false,
    channels: [hook],
  });

  it("keeps a channel's locations with its subscriptions, in the channel list too", async () => {
    const subs = { checks: ['c1'], groups: [], locations: ['ap-south'] };
    expect(await s.subscriptions(A, hook)).toEqual(subs);
    expect((await s.listChannels(A, 0, 10)).items.map((c) => c.subscriptions)).toEqual([subs]);
    expect(await s.setSubscriptions(A, hook, { ...subs, locations: ['eu-west', 'ap-south'] })).toBe(true);
    expect((await s.subscriptions(A, hook))!.locations).toEqual(['ap-south', 'eu-west']);
  });

  it('declares one outage per location with its pages, ends it once with its recovery, and marks its end paged', async () => {
    expect(await s.declareOutage(outage('o1'), [page('p1')], T0)).toBe(true);
    // Another instance's declaration of the same location finds it declared: nothing is written.
    expect(await s.declareOutage(outage('o2'), [page('p2')], T0)).toBe(false);
    expect(await s.notification('p2')).toBeNull();
    expect(await s.notification('p1')).toMatchObject({ event: 'location', status: 'pending', checkId: null });
    expect(await s.liveOutages()).toEqual([outage('o1')]);

    const back = page('r1', { event: 'location-recovery' });
    expect(await s.endOutage(A, 'o1', T0 + 60_000, [back])).toBe(true);
    expect(await s.endOutage(A, 'o1', T0 + 61_000, [page('r2')])).toBe(false);
    expect(await s.notification('r2')).toBeNull();
    // Ended, its end not yet paged for: a restart finishes it.
    expect(await s.liveOutages()).toEqual([{ ...outage('o1'), endedAt: T0 + 60_000 }]);
    await s.markOutageEndPaged(A, 'o1');
    expect(await s.liveOutages()).toEqual([]);
    // The location may go down again: a new outage.
    expect(await s.declareOutage(outage('o3'), [], T0 + 120_000)).toBe(true);
    // Ended outages are history, pruned by historyDays; an open one stays whatever its age.
    await s.prune(T0 + 1e9, { before: T0 + 1e9, hourlyBefore: T0 + 1e9 });
    expect((await s.liveOutages()).map((o) => o.id)).toEqual(['o3']);
  });

  it('keeps a waiting page out of the outbox until it is settled, held or released', async () => {
    const wait = { on: 'location:ap-south', until: T0 + 60_000 };
    await s.enqueueNotification(
      A,
      page('w1', { event: 'failure', checkId: 'c1', lastError: 'waiting', wait }),
      T0,
    );
    await s.enqueueNotification(A, page('w2', { event: 'failure', checkId: 'c2', wait }), T0 + 1_000);
    await s.enqueueNotification(
      A,
      page('w3', { event: 'failure', checkId: 'c3', wait: { ...wait, on: 'location:x' } }),
      T0,
    );
    expect(await s.claimNotifications(T0 + 1_000, 30_000, 10, [])).toEqual([]);
    const groups = await s.waitingNotifications();
    expect(groups.sort((a, b) => a.on.localeCompare(b.on))).toEqual([
      { accountId: A, on: 'location:ap-south', since: T0, until: T0 + 60_000 },
      { accountId: A, on: 'location:x', since: T0, until: T0 + 60_000 },
    ]);
    // Its wait run out, it is still not sent: whoever judges the location settles it...
    expect(await s.claimNotifications(T0 + 61_000, 30_000, 10, [])).toEqual([]);
    expect(
      await s.settleWaiting(A, 'location:ap-south', { held: 'suppressed: location down' }, T0 + 2_000),
    ).toBe(2);
    expect(await s.notification('w1')).toMatchObject({
      status: 'suppressed',
      lastError: 'suppressed: location down',
    });
    // ...or, when no one does, the outbox sends it WAIT_GRACE_MS after its wait ran out.
    const late = T0 + 60_000 + WAIT_GRACE_MS;
    expect((await s.claimNotifications(late, 30_000, 10, [])).map((n) => n.id)).toEqual(['w3']);
  });

  it('releases the waiting pages of a decision at once, or only those whose wait ran out', async () => {
    const on = 'location:ap-south';
    await s.enqueueNotification(A, page('e1', { wait: { on, until: T0 + 10_000 } }), T0);
    await s.enqueueNotification(A, page('e2', { wait: { on, until: T0 + 50_000 } }), T0);
    expect(await s.settleWaiting(A, on, { release: 'expired' }, T0 + 20_000)).toBe(1);
    expect((await s.claimNotifications(T0 + 20_000, 30_000, 10, [])).map((n) => n.id)).toEqual(['e1']);
    expect(await s.settleWaiting(A, on, { release: 'all' }, T0 + 21_000)).toBe(1);
    const e2 = await s.claimNotifications(T0 + 21_000, 30_000, 10, []);
    expect(e2.map((n) => [n.id, n.lastError])).toEqual([['e2', null]]);
    expect(await s.waitingNotifications()).toEqual([]);
  });
});
