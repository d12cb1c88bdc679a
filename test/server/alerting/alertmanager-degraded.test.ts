// A degraded warning through an Alertmanager channel (docs/alerts.md, "The tools that keep
// an alert open" and "Alertmanager"): Alertmanager resolves an alert at its endsAt (3 ×
// repostSeconds after a post), so while the check stays degraded its CheckwallCheckDegraded
// is posted again, as an open alert is; when the check passes, the degraded-end resolves it
// and it is posted no more. On the fake clock; a loopback receiver in Alertmanager's place
// (alertmanager-real.test.ts runs the real one).
import { describe, expect, it } from 'vitest';
import {
  alertConfig,
  alertmanagerHook,
  closedAfterEach,
  runner,
  startAlertService,
  startReceivers,
} from '../../helpers/alerting.js';
import { advanceBy, createFakeClock } from '../../helpers/fake-clock.js';

const held = closedAfterEach();

describe('a degraded warning in Alertmanager', () => {
  it('is posted again while the check stays degraded, and resolved once when it passes', async () => {
    const r = (held.receivers = await startReceivers());
    const clock = createFakeClock(Date.now());
    const am = alertmanagerHook(r, ['c1']);
    const config = alertConfig(r, { channels: [am.channel], alerts: { c1: { onDegraded: true } } });
    const s = (held.svc = await startAlertService(config, clock, { startScheduler: false }));
    const posted = () => am.posted('CheckwallCheckDegraded');
    const run = runner(s, clock);

    await run('c1', ['success', 'success', 'failed']);
    await expect.poll(() => posted().length).toBe(1);
    const warnedAt = clock.now();

    // 40 s on: Alertmanager would have resolved the first post 15 s after it.
    await advanceBy(clock, 40_000, { stepMs: 1_000 });
    await expect.poll(() => posted().length).toBeGreaterThanOrEqual(6);
    const last = posted().at(-1)!;
    expect(last.labels).toMatchObject({
      alertname: 'CheckwallCheckDegraded',
      check_id: 'c1',
      severity: 'warning',
    });
    expect(Date.parse(last.endsAt)).toBeGreaterThan(warnedAt + 40_000);

    // It passes: the degraded-end resolves it, and nothing posts it again.
    await run('c1', ['success', 'success', 'success']);
    await expect.poll(() => Date.parse(posted().at(-1)!.endsAt)).toBe(clock.now());
    const resolvedAfter = posted().length;
    await advanceBy(clock, 20_000, { stepMs: 1_000 });
    expect(posted()).toHaveLength(resolvedAfter);
  });
});
