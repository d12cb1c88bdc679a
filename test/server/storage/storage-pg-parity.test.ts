// PostgreSQL answers as SQLite does: one script of channel, alert and outbox
// operations (what the shared suite, test/server/storage.test.ts, does not reach)
// runs against both, and every answer is compared. A few answers are also checked
// outright, so that two equally wrong storages would not pass.
import { describe, expect, it } from 'vitest';
import { openPgStorage } from '../../../src/server/storage/pg/index.js';
import { openSqliteStorage } from '../../../src/server/storage/sqlite/index.js';
import type { NewNotification, Storage } from '../../../src/server/storage/types.js';
import { testPostgres } from '../../helpers/postgres.js';
import { openAlertRow } from '../../helpers/storages.js';

const A = 'account-a';
const B = 'account-b';
const T0 = Date.parse('2026-11-22T10:00:00.000Z');
const MIN = 60_000;

const postgres = testPostgres();

const alert = openAlertRow;

const notice = (id: string, channelId: number, over: Partial<NewNotification> = {}): NewNotification => ({
  id,
  channelId,
  checkId: 'c1',
  alertId: 'al1',
  event: 'failure',
  status: 'pending',
  payload: { checkName: 'API', nested: { z: 1, a: [2, 3] } },
  ...over,
});

/** The script: each answer goes into the log, labelled. */
async function script(s: Storage): Promise<Map<string, unknown>> {
  const log = new Map<string, unknown>();
  const note = (label: string, value: unknown) => log.set(label, value);
  const email = { type: 'EMAIL' as const, name: 'mail', config: { address: 'a@b.co' } };
  const hook = {
    type: 'WEBHOOK' as const,
    name: 'hook',
    config: { url: 'https://x.example/h', method: 'POST' as const },
    signingSecret: 'whsec_0123456789abcdef',
    subscriptions: { checks: ['c2', 'c1'], groups: ['core'], locations: [] },
  };
  const one = await s.createChannel(
    A,
    { ...email, subscriptions: { checks: ['c1'], groups: [], locations: [] } },
    5,
    T0,
  );
  const two = await s.createChannel(A, hook, 5, T0 + 1);
  await s.createChannel(B, email, 5, T0);
  note('created', [one, two]);
  if (!one.ok || !two.ok) throw new Error('channels were not created');
  const [c1, c2] = [one.channel.id, two.channel.id];
  note('all', await s.allChannels());
  note('channel', [await s.channel(A, c2), await s.channel(B, c2)]);
  note('subs', [await s.subscriptions(A, c2), await s.subscriptions(B, c2)]);
  note('subscribed', await s.subscribedChannels(A, 'c1', 'core'));
  note('subscribed-group', await s.subscribedChannels(A, 'c9', 'core'));
  note('set-subs', [
    await s.setSubscriptions(A, c1, { checks: ['b', 'a', 'a'], groups: ['g'], locations: [] }),
    await s.setSubscriptions(B, c1, { checks: [], groups: [], locations: [] }),
  ]);
  note('subs-after', await s.subscriptions(A, c1));

  await s.applyAlertChange(A, {
    checkId: 'c1',
    at: T0,
    openIncident: {
      id: 'i1',
      checkId: 'c1',
      severity: 'critical',
      title: 'down',
      startedAt: T0,
      endedAt: null,
    },
    openAlert: alert('al1', 'c1', T0),
    notifications: [notice('n1', c1), notice('n2', c2), notice('n3', c2, { status: 'suppressed' })],
  });
  await s.applyAlertChange(A, { checkId: 'c1', at: T0 + MIN, remindAlert: 'al1', notifications: [] });
  note('open-alert', await s.openAlert(A, 'c1'));
  note('remindable', await s.remindableAlerts());
  note('ack', [
    await s.acknowledgeAlert(A, 'al1', T0 + 2 * MIN),
    await s.acknowledgeAlert(A, 'al1', T0 + 3 * MIN),
  ]);
  note('ack-unknown', await s.acknowledgeAlert(B, 'al1', T0));
  note('remindable-after', await s.remindableAlerts());
  note('counts', await s.alertCounts(A, 'c1', T0 + 5 * MIN));
  note('notices', await s.alertNotices('al1'));
  note('last-notice', [
    await s.lastNoticeAt(A, 'c1', c2, 'failure'),
    await s.lastNoticeAt(A, 'c1', c1, 'recovery'),
  ]);

  await s.enqueueNotification(A, notice('t1', c1, { event: 'test', alertId: null, checkId: null }), T0 + MIN);
  note('claim', await s.claimNotifications(T0 + MIN, MIN, 10, []));
  note('claim-leased', await s.claimNotifications(T0 + MIN, MIN, 10, []));
  await s.finishAttempt('n1', { status: 'sent' }, T0 + 2 * MIN);
  await s.finishAttempt(
    'n2',
    { status: 'pending', error: 'HTTP 503', nextAttemptAt: T0 + 3 * MIN },
    T0 + 2 * MIN,
  );
  await s.finishAttempt('t1', { status: 'failed', error: 'refused' }, T0 + 2 * MIN);
  note('claim-one', [
    await s.claimNotification('n2', T0 + 2 * MIN, MIN),
    await s.claimNotification('n1', T0, MIN),
  ]);
  note('claim-again', await s.claimNotifications(T0 + 3 * MIN, MIN, 10, [c1]));
  note('notification', [await s.notification('n2'), await s.notification('nope')]);
  const q = { accountId: A, from: T0, to: T0 + 10 * MIN, offset: 0, limit: 10 };
  note('list', await s.listNotifications(q));
  note('list-page', await s.listNotifications({ ...q, offset: 1, limit: 2 }));
  note(
    'list-filtered',
    await s.listNotifications({ ...q, channelId: c2, status: 'suppressed', checkId: 'c1' }),
  );
  note('stats', [...(await s.deliveryStats(A, [c2, c1, 999], T0))]);

  await s.applyAlertChange(A, {
    checkId: 'c1',
    at: T0 + 4 * MIN,
    closeIncidentAt: T0 + 4 * MIN,
    resolveAlert: 'al1',
    notifications: [notice('n4', c1, { event: 'recovery' })],
  });
  note('resolved', [await s.openAlert(A, 'c1'), await s.currentIncident(A, 'c1')]);
  note('pruned', await s.prune(T0 + 5 * MIN));
  note(
    'after-prune',
    (await s.listNotifications(q)).items.map((n) => [n.id, n.status]),
  );
  note('counts-after', await s.alertCounts(A, 'c1', T0 + 5 * MIN));
  return log;
}

describe('PostgreSQL storage answers as SQLite does', () => {
  it('for channels, subscriptions, alerts and the outbox', async () => {
    const sqlite = openSqliteStorage(':memory:');
    const pg = await openPgStorage(await postgres.freshDatabase());
    try {
      const expected = await script(sqlite);
      const actual = await script(pg);
      for (const [label, value] of expected) expect([label, actual.get(label)]).toEqual([label, value]);
      expect([...actual.keys()]).toEqual([...expected.keys()]);

      expect(actual.get('claim')).toMatchObject([{ id: 'n1', attempts: 1 }, { id: 'n2' }, { id: 't1' }]);
      expect(actual.get('claim-leased')).toEqual([]);
      expect(actual.get('subs-after')).toEqual({ checks: ['a', 'b'], groups: ['g'], locations: [] });
      expect(actual.get('after-prune')).toEqual([
        ['n4', 'pending'],
        ['n2', 'pending'],
      ]);
    } finally {
      await sqlite.close();
      await pg.close();
    }
  });
});
