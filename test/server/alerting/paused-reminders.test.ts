// A paused check's open alert (docs/actions.md, "Pause and resume"), or a disabled one's: the
// alert stays open (a pause is no recovery), but no reminder says the check is failing while
// nobody runs it; once resumed and failing again, the reminders go on.
import { describe, expect, it } from 'vitest';
import {
  alertConfig,
  AUTH,
  hookEvents,
  runner,
  startAlertService,
  startReceivers,
  statusOf,
  closedAfterEach,
} from '../../helpers/alerting.js';
import { createFakeClock } from '../../helpers/fake-clock.js';

const held = closedAfterEach();

describe('a paused check', () => {
  it('is not reminded of while paused, and is again once resumed', async () => {
    const r = (held.receivers = await startReceivers());
    // At the real time: the results it seeds are as recent as the service's own.
    const clock = createFakeClock(Date.now());
    const s = (held.svc = await startAlertService(
      alertConfig(r, { alerts: { c1: { remindEveryMinutes: 10 } } }),
      clock,
    ));
    const run = runner(s, clock);
    await run('c1', ['failed', 'failed']);
    await expect.poll(() => hookEvents(r).length).toBe(1);
    const paused = await fetch(`${s.url}/v1/checks/c1/pause`, { method: 'POST', headers: AUTH });
    expect(paused.status).toBe(200);
    clock.jump(10 * 60_000);
    expect(await s.alerting.sweepReminders()).toBe(0);
    expect((await statusOf(s, 'c1')).currentAlert).not.toBeNull();

    const resumed = await fetch(`${s.url}/v1/checks/c1/resume`, { method: 'POST', headers: AUTH });
    expect(resumed.status).toBe(200);
    await run('c1', ['failed']);
    expect(await s.alerting.sweepReminders()).toBe(1);
  });
});

describe('a check the config disables', () => {
  it('is not reminded of while disabled', async () => {
    const r = (held.receivers = await startReceivers());
    const clock = createFakeClock(Date.now());
    const alerts = { c1: { remindEveryMinutes: 10 } };
    const s = (held.svc = await startAlertService(alertConfig(r, { alerts }), clock));
    await runner(s, clock)('c1', ['failed', 'failed']);
    await expect.poll(() => hookEvents(r).length).toBe(1);
    await s.reload(alertConfig(r, { alerts, checks: { c1: { enabled: false } } }));
    clock.jump(10 * 60_000);
    expect(await s.alerting.sweepReminders()).toBe(0);
  });
});
