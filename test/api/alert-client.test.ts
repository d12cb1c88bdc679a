// The client's alerting methods against the real service on loopback.
import { describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import {
  alertConfig,
  runner,
  startAlertService,
  startReceivers,
  closedAfterEach,
} from '../helpers/alerting.js';
import { TEST_ACCOUNT, TEST_KEY } from '../helpers/service.js';

const held = closedAfterEach();

describe('client, alerting', () => {
  it('reads and replaces subscriptions, tests a channel, sets its window, lists deliveries and acknowledges', async () => {
    const r = (held.receivers = await startReceivers());
    const s = (held.svc = await startAlertService(alertConfig(r)));
    const client = createClient({ baseUrl: s.url, apiKey: TEST_KEY, accountId: TEST_ACCOUNT });
    expect(await client.subscriptions(1)).toEqual({ checks: ['c1'], groups: [], locations: [] });
    expect(
      await client.setSubscriptions(1, { checks: ['c1', 'c2'], groups: ['edge'], locations: [] }),
    ).toEqual({ checks: ['c1', 'c2'], groups: ['edge'], locations: [] });
    await expect(
      client.setSubscriptions(1, { checks: ['zz'], groups: [], locations: [] }),
    ).rejects.toMatchObject({
      kind: 'http',
      status: 400,
      serverMessage: 'unknown in this account: check "zz"',
    });
    expect(await client.testAlertChannel(1)).toMatchObject({ event: 'test', status: 'sent' });
    // A WEBHOOK's window: its own, then its type's default (0) again.
    expect(await client.setChannelGrouping(1, { groupWindowSeconds: 90 })).toEqual({
      groupWindowSeconds: 90,
      effectiveSeconds: 90,
    });
    expect(await client.setChannelGrouping(1, { groupWindowSeconds: null })).toEqual({
      groupWindowSeconds: null,
      effectiveSeconds: 0,
    });
    await expect(client.setChannelGrouping(1, { groupWindowSeconds: 3601 })).rejects.toMatchObject({
      status: 400,
    });
    await runner(s)('c2', ['failed', 'failed']);
    await expect
      .poll(async () => (await client.alertNotifications({ checkId: 'c2', status: 'sent' })).data.length)
      .toBe(1);
    const all = await client.alertNotifications({ limit: 1 });
    expect(all.meta).toMatchObject({ totalItems: 2, totalPages: 2, limit: 1 });
    const minuteAgo = new Date(Date.now() - 60_000).toISOString();
    expect((await client.alertNotifications({ from: minuteAgo })).meta.totalItems).toBe(2);
    expect((await client.alertNotifications({ from: '2000-01-01', to: '2000-01-02' })).data).toEqual([]);
    expect((await client.alertNotifications({ channelId: 1, status: 'failed' })).data).toEqual([]);
    await expect(client.alertNotifications({ from: '2030-01-02', to: '2030-01-01' })).rejects.toMatchObject({
      status: 400,
    });
    const alertId = all.data[0]!.alertId!;
    expect(await client.acknowledgeAlert(alertId)).toMatchObject({
      id: alertId,
      checkId: 'c2',
      acknowledgedAt: expect.any(String),
    });
    await expect(client.acknowledgeAlert('nope')).rejects.toMatchObject({ status: 404 });
    await client.close();
  });
});
