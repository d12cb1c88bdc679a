// WEBHOOK format alertmanager against a real Alertmanager (Debian's), on the system
// clock since Alertmanager compares real times: a failing check's alert appears with
// its fixed labels, is still active 20 s after the first post (each post sets endsAt
// 3 × repostSeconds ahead and the reminder sweep re-posts), is resolved within 5 s of
// the recovery, and a silence made in Alertmanager does not stop that resolution. A
// degraded warning is ended when the check leaves degraded, and a recovery resolves
// the alert even with onRecovery off (docs/alerts.md, "The tools that keep an alert open").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ACCOUNT } from '../../../helpers/configs.js';
import { startAlertmanager, type AmAlert, type Alertmanager } from '../../../helpers/alertmanager.js';
import {
  alertConfig,
  closedAfterEach,
  runner,
  startAlertService,
  startReceivers,
} from '../../../helpers/alerting.js';

const held = closedAfterEach();
let am: Alertmanager;
beforeAll(async () => {
  am = await startAlertmanager();
});
afterAll(() => am?.stop());

const ours = (alerts: AmAlert[], alertname = 'CheckwallCheckFailing') =>
  alerts.filter((a) => a.labels['alertname'] === alertname && a.labels['check_id'] === 'c1');
const names = (alerts: AmAlert[]) =>
  alerts
    .filter((a) => a.labels['check_id'] === 'c1')
    .map((a) => a.labels['alertname'])
    .sort();

describe('WEBHOOK format alertmanager, against Alertmanager', () => {
  it(
    'keeps the alert active while it fails, through a silence, and resolves it at the recovery',
    { timeout: 60_000 },
    async () => {
      const r = (held.receivers = await startReceivers());
      const channel = {
        type: 'WEBHOOK',
        name: 'alertmanager',
        subscriptions: { checks: ['c1'] },
        config: { url: am.url, method: 'POST', format: 'alertmanager', repostSeconds: 5 },
      };
      const svc = (held.svc = await startAlertService(alertConfig(r, { channels: [channel] })));
      const run = runner(svc);
      await run('c1', ['failed', 'failed']);
      await expect.poll(async () => ours(await am.alerts()).length, { timeout: 10_000 }).toBe(1);
      const firstSeen = Date.now();
      const [alert] = ours(await am.alerts());
      expect(alert!.labels).toEqual({
        alertname: 'CheckwallCheckFailing',
        check_id: 'c1',
        account: TEST_ACCOUNT,
        severity: 'critical',
      });
      expect(alert!.annotations['check_name']).toBeTruthy();
      expect(alert!.status.state).toBe('active');
      // An operator silences it in Alertmanager: Checkwall's recovery must still resolve it.
      const silence = await am.silence({ check_id: 'c1' });
      await expect
        .poll(async () => ours(await am.alerts())[0]?.status.silencedBy, { timeout: 5_000 })
        .toEqual([silence]);
      // Its first endsAt was 15 s after the first post: only the re-posts keep it past that.
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, firstSeen + 20_000 - Date.now())));
      expect(ours(await am.alerts())).toHaveLength(1);
      await run('c1', ['success', 'success', 'success']);
      const recovered = Date.now();
      await expect
        .poll(async () => ours(await am.alerts()).length, { timeout: 5_000, interval: 100 })
        .toBe(0);
      expect(Date.now() - recovered).toBeLessThan(5_000);
    },
  );

  it('ends a degraded warning when the check leaves degraded, and resolves without onRecovery', async () => {
    const r = (held.receivers = await startReceivers());
    // repostSeconds 60: a post's own endsAt is 3 min ahead, so only Checkwall's close ends these.
    const channel = {
      type: 'WEBHOOK',
      name: 'alertmanager',
      subscriptions: { checks: ['c1'] },
      config: { url: am.url, method: 'POST', format: 'alertmanager', repostSeconds: 60 },
    };
    const alerts = { c1: { onDegraded: true, onRecovery: false } };
    const svc = (held.svc = await startAlertService(alertConfig(r, { channels: [channel], alerts })));
    const run = runner(svc);
    await run('c1', ['success', 'success', 'failed']);
    await expect
      .poll(async () => names(await am.alerts()), { timeout: 5_000 })
      .toEqual(['CheckwallCheckDegraded']);
    expect(ours(await am.alerts(), 'CheckwallCheckDegraded')[0]!.labels['severity']).toBe('warning');
    await run('c1', ['failed']);
    await expect
      .poll(async () => names(await am.alerts()), { timeout: 5_000 })
      .toEqual(['CheckwallCheckFailing']);
    await run('c1', ['success', 'success', 'success']);
    await expect.poll(async () => names(await am.alerts()), { timeout: 5_000 }).toEqual([]);
  });
});
