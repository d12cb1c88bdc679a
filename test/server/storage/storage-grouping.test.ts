// The shared storage suite, its grouping part (docs/alerts.md, "Grouping per channel"): a
// channel keeps its window, and changes it; a notification written with its group's time is not claimed
// before it, is claimed with it after, and keeps it through a released wait. Run over every
// implementation in test/helpers/storages.ts.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NewNotification, Storage } from '../../../src/server/storage/types.js';
import { allStorages } from '../../helpers/storages.js';

const A = 'account-a';
const T0 = Date.parse('2026-11-28T03:12:00.000Z');

describe.each(allStorages())('storage, grouping per channel: $name', ({ open }) => {
  let s: Storage;
  let chat: number;
  beforeEach(async () => {
    s = await open();
    const made = await s.createChannel(
      A,
      {
        type: 'CHAT',
        name: 'chat',
        config: { url: 'https://x.example/c' },
        subscriptions: { checks: ['c1'], groups: [], locations: [] },
        groupWindowSeconds: 45,
      },
      10,
      T0,
    );
    chat = made.ok ? made.channel.id : -1;
    expect(made.ok && made.channel.groupWindowSeconds).toBe(45);
  });
  afterEach(() => s.close());

  const page = (id: string, over: Partial<NewNotification> = {}): NewNotification => ({
    id,
    channelId: chat,
    checkId: 'c1',
    alertId: null,
    event: 'failure',
    status: 'pending',
    payload: { event: 'failure', n: id },
    ...over,
  });

  it('keeps a channel’s window, and null where none was given', async () => {
    expect((await s.channel(A, chat))?.groupWindowSeconds).toBe(45);
    const other = await s.createChannel(
      A,
      { type: 'EMAIL', name: 'm', config: { address: 'a@b.test' } },
      10,
      T0,
    );
    expect(other.ok && (await s.channel(A, other.channel.id))?.groupWindowSeconds).toBeNull();
  });

  it('changes a channel’s window, back to the default with null, for its own account only', async () => {
    expect(await s.setGroupWindow(A, chat, 120, T0 + 1_000)).toBe(true);
    expect((await s.channel(A, chat))?.groupWindowSeconds).toBe(120);
    const [listed] = (await s.listChannels(A, 0, 10)).items;
    expect(listed).toMatchObject({ groupWindowSeconds: 120, updatedAt: new Date(T0 + 1_000).toISOString() });
    expect((await s.subscribedChannels(A, 'c1', undefined))[0]?.groupWindowSeconds).toBe(120);
    expect(await s.setGroupWindow(A, chat, null, T0 + 2_000)).toBe(true);
    expect((await s.channel(A, chat))?.groupWindowSeconds).toBeNull();
    expect((await s.listChannels(A, 0, 10)).items[0]).not.toHaveProperty('groupWindowSeconds');
    expect(await s.setGroupWindow('account-b', chat, 5, T0)).toBe(false);
    expect(await s.setGroupWindow(A, chat + 1000, 5, T0)).toBe(false);
    expect((await s.channel(A, chat))?.groupWindowSeconds).toBeNull();
  });

  it('claims grouped notifications at their group’s time, all together, each with it', async () => {
    const until = T0 + 30_000;
    await s.enqueueNotification(A, page('g1', { groupUntil: until }), T0);
    // Each of its own check: one of the same check waits for the earlier (outbox-order.test.ts).
    await s.enqueueNotification(A, page('g2', { checkId: 'c2', groupUntil: until }), T0 + 5_000);
    await s.enqueueNotification(A, page('n1', { checkId: 'c3' }), T0 + 5_000);
    expect((await s.claimNotifications(T0 + 10_000, 30_000, 10, [])).map((n) => n.id)).toEqual(['n1']);
    expect(await s.claimNotifications(until - 1, 30_000, 10, [])).toEqual([]);
    const claimed = await s.claimNotifications(until, 30_000, 10, []);
    expect(claimed.map((n) => [n.id, n.groupUntil])).toEqual([
      ['g1', until],
      ['g2', until],
    ]);
    expect((await s.notification('n1'))?.groupUntil).toBeNull();
  });

  it('claims a group whole, beyond the claim’s limit: it is one message', async () => {
    const until = T0 + 30_000;
    const ids = Array.from({ length: 12 }, (_, i) => `g${i}`);
    for (const id of ids) await s.enqueueNotification(A, page(id, { checkId: id, groupUntil: until }), T0);
    const claimed = await s.claimNotifications(until, 30_000, 4, []);
    expect(claimed.map((n) => n.id).sort()).toEqual([...ids].sort());
  });

  it('sends a page whose wait is released at its group’s time, not before', async () => {
    const until = T0 + 30_000;
    const on = 'location:eu-west';
    await s.enqueueNotification(A, page('w1', { groupUntil: until, wait: { on, until: T0 + 10_000 } }), T0);
    expect(await s.settleWaiting(A, on, { release: 'all' }, T0 + 2_000)).toBe(1);
    expect(await s.claimNotifications(T0 + 2_000, 30_000, 10, [])).toEqual([]);
    expect((await s.claimNotifications(until, 30_000, 10, [])).map((n) => n.id)).toEqual(['w1']);
  });
});
