// The shared storage suite, the order of a check's notices on a channel (docs/alerts.md,
// "Retries: at least once, never twice under two ids"): a notice is not claimed while an
// earlier one of its check to that channel is still pending (waiting, grouped, retried or
// under way), so a recovery never reaches a receiver before its failure, nor one whose failure
// was held. Run over every implementation in test/helpers/storages.ts.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NewNotification, Storage } from '../../../src/server/storage/types.js';
import { allStorages } from '../../helpers/storages.js';

const A = 'account-a';
const T0 = Date.parse('2026-11-28T03:12:00.000Z');
const LEASE = 30_000;

describe.each(allStorages())('storage, a check’s notices in order: $name', ({ open }) => {
  let s: Storage;
  let hook: number;
  let other: number;
  beforeEach(async () => {
    s = await open();
    const channel = async (name: string) => {
      const made = await s.createChannel(
        A,
        { type: 'WEBHOOK', name, config: { url: 'https://x.example/h', method: 'POST' } },
        10,
        T0,
      );
      if (!made.ok) throw new Error('no channel');
      return made.channel.id;
    };
    hook = await channel('hook');
    other = await channel('other');
  });
  afterEach(() => s.close());

  const notice = (id: string, over: Partial<NewNotification> = {}): NewNotification => ({
    id,
    channelId: hook,
    checkId: 'c1',
    alertId: 'a1',
    event: 'failure',
    status: 'pending',
    payload: { n: id },
    ...over,
  });
  const claim = async (at: number) => (await s.claimNotifications(at, LEASE, 10, [])).map((n) => n.id);

  it('holds a recovery back while its failure is retried, and sends it after', async () => {
    await s.enqueueNotification(A, notice('f1'), T0);
    expect(await claim(T0)).toEqual(['f1']);
    // The receiver answered 503: due again in a minute.
    await s.finishAttempt('f1', { status: 'pending', error: 'HTTP 503', nextAttemptAt: T0 + 60_000 }, T0 + 1);
    await s.enqueueNotification(A, notice('r1', { event: 'recovery' }), T0 + 10_000);
    // The same alert's recovery on another channel, and another check's notice, are not held back.
    await s.enqueueNotification(A, notice('r2', { event: 'recovery', channelId: other }), T0 + 10_000);
    await s.enqueueNotification(A, notice('f3', { alertId: 'a3', checkId: 'c3' }), T0 + 10_000);
    expect((await claim(T0 + 10_000)).sort()).toEqual(['f3', 'r2']);
    for (const id of ['f3', 'r2']) await s.finishAttempt(id, { status: 'sent' }, T0 + 10_000);
    expect(await claim(T0 + 60_000)).toEqual(['f1']);
    // Under way: still held back.
    expect(await claim(T0 + 61_000)).toEqual([]);
    await s.finishAttempt('f1', { status: 'sent' }, T0 + 61_000);
    expect(await claim(T0 + 61_000)).toEqual(['r1']);
  });

  it('sends a failure and its recovery of one window one after the other', async () => {
    const until = T0 + 30_000;
    await s.enqueueNotification(A, notice('f1', { groupUntil: until }), T0);
    await s.enqueueNotification(A, notice('r1', { event: 'recovery', groupUntil: until }), T0 + 5_000);
    expect(await claim(until)).toEqual(['f1']);
    await s.finishAttempt('f1', { status: 'failed', error: 'HTTP 400' }, until);
    expect(await claim(until)).toEqual(['r1']);
  });

  it('holds a degraded-end back behind its warning, and a new alert’s failure behind the last one’s recovery', async () => {
    await s.enqueueNotification(A, notice('d1', { event: 'degraded', alertId: null }), T0);
    await s.enqueueNotification(A, notice('r0', { event: 'recovery', alertId: 'a0', checkId: 'c2' }), T0);
    expect((await claim(T0)).sort()).toEqual(['d1', 'r0']);
    for (const id of ['d1', 'r0'])
      await s.finishAttempt(id, { status: 'pending', error: 'HTTP 503', nextAttemptAt: T0 + 60_000 }, T0 + 1);
    await s.enqueueNotification(A, notice('e1', { event: 'degraded-end', alertId: null }), T0 + 10_000);
    await s.enqueueNotification(A, notice('f2', { alertId: 'a2', checkId: 'c2' }), T0 + 10_000);
    expect(await claim(T0 + 10_000)).toEqual([]);
    expect((await claim(T0 + 60_000)).sort()).toEqual(['d1', 'r0']);
    for (const id of ['d1', 'r0']) await s.finishAttempt(id, { status: 'sent' }, T0 + 60_000);
    expect((await claim(T0 + 60_000)).sort()).toEqual(['e1', 'f2']);
  });

  it('holds a location’s recovery back behind its page', async () => {
    const location = { checkId: null, alertId: null };
    const outage = (id: string, o: string) => ({ event: 'location', outageId: o, n: id });
    await s.enqueueNotification(
      A,
      notice('l1', { ...location, event: 'location', payload: outage('l1', 'o1') }),
      T0,
    );
    // Another location's outage on the same channel goes its own way.
    await s.enqueueNotification(
      A,
      notice('l2', { ...location, event: 'location', payload: outage('l2', 'o2') }),
      T0,
    );
    expect((await claim(T0)).sort()).toEqual(['l1', 'l2']);
    await s.finishAttempt('l2', { status: 'sent' }, T0);
    await s.finishAttempt('l1', { status: 'pending', error: 'HTTP 503', nextAttemptAt: T0 + 60_000 }, T0 + 1);
    const ended = { ...location, event: 'location-recovery' as const, payload: outage('e1', 'o1') };
    await s.enqueueNotification(A, notice('e1', ended), T0 + 10_000);
    expect(await claim(T0 + 10_000)).toEqual([]);
    expect(await claim(T0 + 60_000)).toEqual(['l1']);
    await s.finishAttempt('l1', { status: 'sent' }, T0 + 60_000);
    expect(await claim(T0 + 60_000)).toEqual(['e1']);
  });

  it('holds the recovery of a failure its wait ends holding, as the failure is held', async () => {
    const on = 'location:eu-west';
    await s.enqueueNotification(A, notice('f1', { wait: { on, until: T0 + 60_000 } }), T0);
    await s.enqueueNotification(A, notice('r1', { event: 'recovery' }), T0 + 10_000);
    await s.enqueueNotification(A, notice('r2', { event: 'recovery', channelId: other }), T0 + 10_000);
    expect(await claim(T0 + 10_000)).toEqual(['r2']);
    expect(
      await s.settleWaiting(A, on, { held: 'suppressed: location Singapore is down' }, T0 + 20_000),
    ).toBe(1);
    expect(await claim(T0 + 20_000)).toEqual([]);
    expect(await s.notification('r1')).toMatchObject({
      status: 'suppressed',
      lastError: 'suppressed: the failure notice of this alert was suppressed here',
    });
  });
});
