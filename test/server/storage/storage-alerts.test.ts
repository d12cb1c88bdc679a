// The shared storage suite, its alerting half (storage.test.ts has the rest): channels and their subscriptions,
// alerts, and the outbox (enqueue, claim with a lease, finish). Run over every
// implementation in test/helpers/storages.ts, against the Storage interface only.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NewNotification, Storage } from '../../../src/server/storage/types.js';
import { allStorages, openAlertRow } from '../../helpers/storages.js';

const A = 'account-a';
const B = 'account-b';
const T0 = Date.parse('2026-11-22T10:00:00.000Z');
const LEASE = 30_000;

const alert = (id: string, checkId = 'c1') => openAlertRow(id, checkId, T0);

describe.each(allStorages())('storage, alerting: $name', ({ open }) => {
  let s: Storage;
  let hook: number;
  let mail: number;
  beforeEach(async () => {
    s = await open();
    const made = await Promise.all([
      s.createChannel(
        A,
        {
          type: 'WEBHOOK',
          name: 'hook',
          config: { url: 'https://x.example/h', method: 'POST' },
          signingSecret: 'whsec_0123456789',
          subscriptions: { checks: ['c1'], groups: ['core'], locations: [] },
        },
        10,
        T0,
      ),
      s.createChannel(A, { type: 'EMAIL', name: 'mail', config: { address: 'a@b.co' } }, 10, T0),
    ]);
    [hook, mail] = made.map((m) => (m.ok ? m.channel.id : -1)) as [number, number];
  });
  afterEach(() => s.close());

  const notice = (id: string, over: Partial<NewNotification> = {}): NewNotification => ({
    id,
    channelId: hook,
    checkId: 'c1',
    alertId: 'a1',
    event: 'failure',
    status: 'pending',
    payload: { event: 'failure', n: id },
    ...over,
  });

  describe('channels', () => {
    it('keeps subscriptions, replaces them, and finds the channels of a check or its group', async () => {
      expect(await s.subscriptions(A, hook)).toEqual({ checks: ['c1'], groups: ['core'], locations: [] });
      expect(await s.subscriptions(B, hook)).toBeNull();
      const ids = async (checkId: string, group?: string) =>
        (await s.subscribedChannels(A, checkId, group)).map((c) => c.id);
      expect(await ids('c1')).toEqual([hook]);
      expect(await ids('c9', 'core')).toEqual([hook]);
      expect(await ids('c9')).toEqual([]);
      expect(await s.setSubscriptions(A, mail, { checks: ['c9'], groups: [], locations: [] })).toBe(true);
      expect(await s.setSubscriptions(B, mail, { checks: ['c9'], groups: [], locations: [] })).toBe(false);
      expect(await ids('c9')).toEqual([mail]);
      expect(await s.subscriptions(A, mail)).toEqual({ checks: ['c9'], groups: [], locations: [] });
    });

    it('gives a channel whole (its secret too) to its account only, and every channel at start-up', async () => {
      expect(await s.channel(A, hook)).toEqual({
        id: hook,
        accountId: A,
        type: 'WEBHOOK',
        name: 'hook',
        config: { url: 'https://x.example/h', method: 'POST' },
        signingSecret: 'whsec_0123456789',
        groupWindowSeconds: null,
      });
      expect(await s.channel(B, hook)).toBeNull();
      expect((await s.allChannels()).map((c) => c.name)).toEqual(['hook', 'mail']);
      const listed = await s.listChannels(A, 0, 10);
      expect(listed.items[0]!.signingSecret).not.toBe('whsec_0123456789'); // masked on the wire
    });
  });

  describe('alerts', () => {
    it('opens, reminds, acknowledges once and resolves an alert', async () => {
      await s.applyAlertChange(A, { checkId: 'c1', at: T0, openAlert: alert('a1'), notifications: [] });
      expect(await s.openAlert(A, 'c1')).toEqual(alert('a1'));
      expect(await s.openAlert(B, 'c1')).toBeNull();
      expect(await s.remindableAlerts()).toEqual([{ ...alert('a1'), accountId: A }]);
      await s.applyAlertChange(A, { checkId: 'c1', at: T0 + 5, remindAlert: 'a1', notifications: [] });
      expect(await s.openAlert(A, 'c1')).toMatchObject({ remindersSent: 1, lastNotifiedAt: T0 + 5 });
      expect((await s.acknowledgeAlert(A, 'a1', T0 + 10))?.acknowledgedAt).toBe(T0 + 10);
      expect((await s.acknowledgeAlert(A, 'a1', T0 + 20))?.acknowledgedAt).toBe(T0 + 10);
      expect(await s.acknowledgeAlert(B, 'a1', T0 + 20)).toBeNull();
      expect(await s.remindableAlerts()).toEqual([]);
      expect(await s.alertCounts(A, 'c1', T0 + 30)).toEqual({ active: 0, acknowledged: 1, total24h: 1 });
      await s.applyAlertChange(A, { checkId: 'c1', at: T0 + 40, resolveAlert: 'a1', notifications: [] });
      expect(await s.openAlert(A, 'c1')).toBeNull();
    });

    it('records each expiry threshold of a certificate once: a second change with one of them writes no certificate notice', async () => {
      const cert = (id: string) => notice(id, { alertId: null, event: 'certificate' });
      const key = 'SERIAL1@2026-12-01T00:00:00.000Z';
      const change = (ids: string[], thresholds: number[]) => ({
        checkId: 'c1',
        at: T0,
        notifications: ids.map(cert),
        certificateNotice: { key, thresholds },
      });
      await s.applyAlertChange(A, change(['n1'], [14, 7]));
      expect((await s.certificateThresholdsSent(A, 'c1', key)).sort()).toEqual([14, 7]);
      expect(await s.certificateThresholdsSent(A, 'c1', 'other@2027-01-01T00:00:00.000Z')).toEqual([]);
      expect(await s.certificateThresholdsSent(B, 'c1', key)).toEqual([]);
      // Another instance planned 7 from the same result: it was sent, so this is not.
      await s.applyAlertChange(A, { ...change(['n2'], [7]), notifications: [cert('n2'), notice('n3')] });
      const written = await s.listNotifications({ accountId: A, from: 0, to: T0 + 1, limit: 10, offset: 0 });
      expect(written.items.map((n) => n.id).sort()).toEqual(['n1', 'n3']);
      await s.applyAlertChange(A, change(['n4'], [1]));
      expect((await s.certificateThresholdsSent(A, 'c1', key)).sort((x, y) => x - y)).toEqual([1, 7, 14]);
    });
  });

  describe('the outbox', () => {
    beforeEach(async () => {
      await s.applyAlertChange(A, {
        checkId: 'c1',
        at: T0,
        openAlert: alert('a1'),
        notifications: [
          notice('n1'),
          notice('n2', { channelId: mail, status: 'suppressed', lastError: 'suppressed: too soon' }),
        ],
      });
    });

    it("writes a hold end's page with its claim, once per check and end: a second write writes nothing", async () => {
      const holdEnd = { kind: 'maintenance' as const, holdId: 'w1', endsAt: T0 };
      const page = (id: string, checkId = 'c1') => ({
        checkId,
        at: T0 + 1,
        holdEnd,
        notifications: [notice(id, { checkId })],
      });
      await s.applyAlertChange(A, page('p1'));
      await s.applyAlertChange(A, page('p2'));
      await s.applyAlertChange(A, page('p3', 'c2'));
      await s.applyAlertChange(A, { ...page('p4'), holdEnd: { ...holdEnd, endsAt: T0 + 60_000 } });
      const ids = (
        await s.listNotifications({ accountId: A, from: T0, to: T0 + 2, limit: 50, offset: 0 })
      ).items
        .map((n) => n.id)
        .filter((id) => id.startsWith('p'))
        .sort();
      expect(ids).toEqual(['p1', 'p3', 'p4']);
    });

    it('claims what is pending and due, once per lease, and again when the lease ran out', async () => {
      const [first, ...more] = await s.claimNotifications(T0, LEASE, 10, []);
      expect(more).toEqual([]);
      expect(first).toMatchObject({
        id: 'n1',
        accountId: A,
        channelId: hook,
        channelName: 'hook',
        channelType: 'WEBHOOK',
        status: 'pending',
        attempts: 1,
        payload: { event: 'failure', n: 'n1' },
      });
      expect(await s.claimNotifications(T0 + 1, LEASE, 10, [])).toEqual([]);
      expect(await s.claimNotification('n1', T0 + 1, LEASE)).toBeNull();
      const again = await s.claimNotifications(T0 + LEASE, LEASE, 10, []);
      expect(again.map((n) => [n.id, n.attempts])).toEqual([['n1', 2]]);
    });

    it('leaves the channels it is told to skip, and claims one notification by id', async () => {
      expect(await s.claimNotifications(T0, LEASE, 10, [hook])).toEqual([]);
      expect((await s.claimNotification('n1', T0, LEASE))?.attempts).toBe(1);
    });

    it('finishes attempts: sent, due again later, or failed', async () => {
      await s.claimNotifications(T0, LEASE, 10, []);
      await s.finishAttempt(
        'n1',
        { status: 'pending', error: 'HTTP 503', nextAttemptAt: T0 + 60_000 },
        T0 + 5,
      );
      expect(await s.notification('n1')).toMatchObject({ status: 'pending', lastError: 'HTTP 503' });
      expect(await s.claimNotifications(T0 + 59_999, LEASE, 10, [])).toEqual([]);
      expect((await s.claimNotifications(T0 + 60_000, LEASE, 10, [])).map((n) => n.id)).toEqual(['n1']);
      await s.finishAttempt('n1', { status: 'sent' }, T0 + 60_010);
      expect(await s.notification('n1')).toMatchObject({
        status: 'sent',
        sentAt: T0 + 60_010,
        lastError: null,
      });
      expect(await s.claimNotifications(T0 + 999_999, LEASE, 10, [])).toEqual([]);
      expect(await s.notification('nope')).toBeNull();
    });

    it('tells the backlog: what is pending, of every account, and since when', async () => {
      expect(await s.outboxBacklog()).toEqual({ pending: 1, oldestAt: T0 });
      await s.enqueueNotification(B, notice('b1', { channelId: mail }), T0 + 50);
      expect(await s.outboxBacklog()).toEqual({ pending: 2, oldestAt: T0 });
      await s.claimNotifications(T0, LEASE, 10, []);
      await s.finishAttempt('n1', { status: 'sent' }, T0 + 60);
      expect(await s.outboxBacklog()).toEqual({ pending: 1, oldestAt: T0 + 50 });
      await s.finishAttempt('b1', { status: 'failed', error: 'HTTP 410' }, T0 + 70);
      expect(await s.outboxBacklog()).toEqual({ pending: 0, oldestAt: null });
    });

    it('lists, counts and dates what went to each channel', async () => {
      await s.enqueueNotification(A, notice('t1', { event: 'test', checkId: null, alertId: null }), T0 + 100);
      const all = await s.listNotifications({ accountId: A, from: T0, to: T0 + 1000, offset: 0, limit: 10 });
      expect(all.total).toBe(3);
      expect(all.items[0]!.id).toBe('t1'); // newest first
      const filtered = await s.listNotifications({
        accountId: A,
        channelId: mail,
        status: 'suppressed',
        from: T0,
        to: T0 + 1000,
        offset: 0,
        limit: 10,
      });
      expect(filtered.items.map((n) => [n.id, n.lastError])).toEqual([['n2', 'suppressed: too soon']]);
      expect(
        (await s.listNotifications({ accountId: B, from: 0, to: T0 * 2, offset: 0, limit: 10 })).total,
      ).toBe(0);
      const notices = await s.alertNotices('a1'); // written together: in either order
      expect(notices).toHaveLength(2);
      expect(notices).toEqual(
        expect.arrayContaining([
          { channelId: hook, event: 'failure', status: 'pending' },
          { channelId: mail, event: 'failure', status: 'suppressed' },
        ]),
      );
      expect(await s.lastNoticeAt(A, 'c1', hook, 'failure')).toBe(T0);
      expect(await s.lastNoticeAt(A, 'c1', mail, 'failure')).toBeNull(); // a suppressed one is no notice
      await s.claimNotification('n1', T0 + 200, LEASE);
      await s.finishAttempt('n1', { status: 'failed', error: 'HTTP 410' }, T0 + 300);
      const stats = await s.deliveryStats(A, [hook, mail], T0);
      expect(stats.get(hook)).toEqual({
        last: { id: 't1', event: 'test', status: 'pending', at: T0 + 100 },
        failures: 1,
      });
      expect(stats.get(mail)).toEqual({
        last: { id: 'n2', event: 'failure', status: 'suppressed', at: T0 },
        failures: 0,
      });
    });

    it('prunes finished notifications and resolved alerts, never pending ones or open alerts', async () => {
      await s.claimNotification('n1', T0, LEASE);
      await s.finishAttempt('n1', { status: 'sent' }, T0 + 1);
      await s.applyAlertChange(A, { checkId: 'c2', at: T0, openAlert: alert('a2', 'c2'), notifications: [] });
      await s.applyAlertChange(A, { checkId: 'c2', at: T0 + 1, resolveAlert: 'a2', notifications: [] });
      await s.enqueueNotification(A, notice('late', { alertId: null }), T0);
      await s.prune(T0 + 10);
      expect(await s.notification('n1')).toBeNull();
      expect(await s.notification('n2')).toBeNull();
      expect(await s.notification('late')).not.toBeNull();
      expect(await s.openAlert(A, 'c1')).not.toBeNull();
      expect(await s.alertCounts(A, 'c2', T0 + 20)).toEqual({ active: 0, acknowledged: 0, total24h: 0 });
    });
  });
});
