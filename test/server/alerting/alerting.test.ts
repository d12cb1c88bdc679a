// When alerts fire, through the real service: results arrive by its run path,
// notifications reach a real HTTP receiver on loopback, the delivery log and
// the check statuses show what happened.
import { describe, expect, it } from 'vitest';
import { AlertPayloadSchema } from '../../../src/api/schemas/index.js';
import {
  alertConfig,
  AUTH,
  HEADER_SECRET,
  HOOK_SECRET,
  hookEvents,
  notifications,
  runner,
  startAlertService,
  startReceivers,
  statusOf,
  verifySignature,
  closedAfterEach,
} from '../../helpers/alerting.js';
import { createFakeClock } from '../../helpers/fake-clock.js';

const held = closedAfterEach();

describe('alerts', () => {
  it('fire after afterFailures failed runs, reach the webhook signed, and recover', async () => {
    const r = (held.receivers = await startReceivers());
    const s = (held.svc = await startAlertService(alertConfig(r, { alerts: { c1: { afterFailures: 3 } } })));
    const run = runner(s);
    await run('c1', ['success', 'success', 'failed', 'failed']);
    // Failing (2 failed runs at its only location) but only 2 in a row: no page yet.
    expect((await statusOf(s, 'c1')).status).toBe('failing');
    expect(await notifications(s)).toEqual([]);
    const [third] = await run('c1', ['failed']);
    await expect.poll(() => r.hook.seen.length).toBe(1);
    const req = r.hook.seen[0]!;
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/hook?team=sre');
    expect(req.headers['authorization']).toBe(HEADER_SECRET);
    expect(req.headers['content-type']).toBe('application/json');
    expect(verifySignature(HOOK_SECRET, req.body, req.headers['x-checkwall-signature'])).toBe(true);
    const payload = AlertPayloadSchema.parse(JSON.parse(req.body));
    const status = await statusOf(s, 'c1');
    expect(payload).toMatchObject({
      event: 'failure',
      deliveryId: req.headers['x-checkwall-delivery'],
      alertId: status.currentAlert!.id,
      check: { id: 'c1', name: 'Check 0001', type: 'api' },
      status: 'failing',
      failingLocations: [{ id: 'eu-west', name: 'Frankfurt' }],
      error: 'assertion STATUS_CODE expected 200, got 500',
      resultId: third!.id,
      incidentId: status.currentIncident!.id,
      link: `https://checkwall.example.test/v1/check-results/c1?from=${encodeURIComponent(third!.startedAt)}&to=${encodeURIComponent(third!.startedAt)}`,
      channel: { name: 'Incident bot' },
    });
    expect(status.alerts).toEqual({ active: 1, acknowledged: 0, total24h: 1 });

    // The first success makes it degraded: no longer failing, which is the recovery.
    await run('c1', ['success', 'success', 'success']);
    await expect.poll(() => r.hook.seen.length).toBe(2);
    expect(hookEvents(r)[1]).toMatchObject({
      event: 'recovery',
      status: 'degraded',
      alertId: payload.alertId,
    });
    const log = await notifications(s, 'checkId=c1');
    expect(log.map((n) => [n.event, n.status, n.attempts])).toEqual([
      ['recovery', 'sent', 1],
      ['failure', 'sent', 1],
    ]);
    expect(log[1]).toMatchObject({
      id: payload.deliveryId,
      channel: { name: 'Incident bot', type: 'WEBHOOK' },
      check: { id: 'c1', name: 'Check 0001' },
      lastError: null,
      sentAt: expect.any(String),
    });
    expect(await statusOf(s, 'c1')).toMatchObject({
      currentAlert: null,
      alerts: { active: 0, acknowledged: 0, total24h: 1 },
    });
  });

  it('send degraded notices only when onDegraded, and no recovery when onRecovery is false', async () => {
    const r = (held.receivers = await startReceivers());
    const config = alertConfig(r, {
      alerts: { c1: { onRecovery: false, onDegraded: true } },
      channels: [
        {
          type: 'CHAT',
          name: 'Ops chat',
          subscriptions: { checks: ['c1', 'c2'] },
          groupWindowSeconds: 0,
          config: { url: `${r.hook.url}/chat`, channel: '#ops' },
        },
      ],
    });
    const s = (held.svc = await startAlertService(config));
    const run = runner(s);
    await run('c2', ['success', 'success', 'failed']); // degraded, but c2 keeps the default onDegraded false
    await run('c1', ['success', 'success', 'failed']); // degraded: a notice
    await expect.poll(() => r.hook.seen.length).toBe(1);
    expect(JSON.parse(r.hook.seen[0]!.body)).toEqual({
      text: expect.stringMatching(/^\[DEGRADED\] Check 0001 is degraded: assertion STATUS_CODE/),
      channel: '#ops',
    });
    await run('c1', ['failed', 'success', 'success', 'success']);
    await expect
      .poll(async () => (await notifications(s)).map((n) => n.event))
      .toEqual(['failure', 'degraded']);
    expect((await statusOf(s, 'c1')).currentAlert).toBeNull();
    expect(JSON.parse(r.hook.seen[1]!.body).text).toMatch(/^\[FAILING\] Check 0001 is failing at Frankfurt/);
  });

  it('remind while failing and not acknowledged, at most maxReminders; acknowledging stops them', async () => {
    const r = (held.receivers = await startReceivers());
    // At the real time: the results it seeds are as recent as the service's own.
    const clock = createFakeClock(Date.now());
    const config = alertConfig(r, {
      alerts: { c1: { remindEveryMinutes: 10, maxReminders: 2 }, c2: { remindEveryMinutes: 10 } },
      channels: [
        {
          type: 'WEBHOOK',
          name: 'hook',
          subscriptions: { checks: ['c1', 'c2'] },
          config: { url: `${r.hook.url}/hook`, method: 'POST' },
        },
      ],
    });
    const s = (held.svc = await startAlertService(config, clock));
    const run = runner(s, clock);
    await run('c1', ['failed', 'failed']);
    await run('c2', ['failed', 'failed']);
    await expect.poll(() => r.hook.seen.length).toBe(2);
    expect(await s.alerting.sweepReminders()).toBe(0); // not due yet
    clock.jump(10 * 60_000);
    expect(await s.alerting.sweepReminders()).toBe(2);
    clock.jump(10 * 60_000);
    expect(await s.alerting.sweepReminders()).toBe(2);
    clock.jump(10 * 60_000);
    expect(await s.alerting.sweepReminders()).toBe(1); // c1 has had its 2; c2 (default 3) its third
    await expect.poll(() => r.hook.seen.length).toBe(7);
    const c1 = hookEvents(r).filter((_, i) => JSON.parse(r.hook.seen[i]!.body).check.id === 'c1');
    expect(c1.map((e) => [e.event, e.reminder])).toEqual([
      ['failure', undefined],
      ['reminder', 1],
      ['reminder', 2],
    ]);

    const c2 = await statusOf(s, 'c2');
    // A body with keys (a note the service has no place for) is refused, acknowledging nothing.
    const noted = await fetch(`${s.url}/v1/check-alerts/${c2.currentAlert!.id}/acknowledge`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: JSON.stringify({ note: 'on it' }),
    });
    expect(noted.status).toBe(400);
    expect((await statusOf(s, 'c2')).currentAlert).toMatchObject({ acknowledgedAt: null });
    const ack = await fetch(`${s.url}/v1/check-alerts/${c2.currentAlert!.id}/acknowledge`, {
      method: 'POST',
      headers: AUTH,
    });
    expect(ack.status).toBe(200);
    expect(await ack.json()).toMatchObject({ id: c2.currentAlert!.id, checkId: 'c2', remindersSent: 3 });
    expect(await statusOf(s, 'c2')).toMatchObject({
      alerts: { active: 0, acknowledged: 1, total24h: 1 },
      currentAlert: { acknowledgedAt: expect.any(String) },
    });
    clock.jump(60 * 60_000);
    expect(await s.alerting.sweepReminders()).toBe(0);
  });

  it('stop reminders for an acknowledged alert, and the next failure after a recovery is a new alert', async () => {
    const r = (held.receivers = await startReceivers());
    // At the real time: the results it seeds are as recent as the service's own.
    const clock = createFakeClock(Date.now());
    const s = (held.svc = await startAlertService(
      alertConfig(r, { alerts: { c1: { remindEveryMinutes: 1, minIntervalSeconds: 0 } } }),
      clock,
    ));
    const run = runner(s, clock);
    await run('c1', ['failed', 'failed']);
    const first = (await statusOf(s, 'c1')).currentAlert!;
    const ack = await fetch(`${s.url}/v1/check-alerts/${first.id}/acknowledge`, {
      method: 'POST',
      headers: AUTH,
    });
    expect(ack.status).toBe(200);
    // Delivered before the clock jumps, so no lease of it runs out mid-flight.
    await expect.poll(() => hookEvents(r).length).toBe(2);
    clock.jump(5 * 60_000);
    expect(await s.alerting.sweepReminders()).toBe(0);
    await run('c1', ['success', 'success', 'success', 'failed', 'failed']);
    const second = (await statusOf(s, 'c1')).currentAlert!;
    expect(second.id).not.toBe(first.id);
    expect(second.acknowledgedAt).toBeNull();
    await expect.poll(() => hookEvents(r).length).toBe(4);
    clock.jump(60_000);
    expect(await s.alerting.sweepReminders()).toBe(1);
    await expect
      .poll(() => hookEvents(r).map((e) => e.event))
      // The acknowledgement goes to the webhook too (docs/alerts.md, "The acknowledgement event").
      .toEqual(['failure', 'acknowledgement', 'recovery', 'failure', 'reminder']);
    const unknown = await fetch(`${s.url}/v1/check-alerts/nope/acknowledge`, {
      method: 'POST',
      headers: AUTH,
    });
    expect(unknown.status).toBe(404);
  });

  it('suppress a flapping check: one failure per channel per minIntervalSeconds, logged as suppressed', async () => {
    const r = (held.receivers = await startReceivers());
    const s = (held.svc = await startAlertService(alertConfig(r)));
    const run = runner(s);
    await run('c1', ['failed', 'failed', 'success', 'success', 'success', 'failed', 'failed']);
    await run('c1', ['success', 'success', 'success']);
    await expect
      .poll(async () => (await notifications(s)).filter((n) => n.status !== 'pending').length)
      .toBe(4);
    const log = await notifications(s);
    expect(log.map((n) => [n.event, n.status])).toEqual([
      ['recovery', 'suppressed'],
      ['failure', 'suppressed'],
      ['recovery', 'sent'],
      ['failure', 'sent'],
    ]);
    expect(log[1]!.lastError).toMatch(
      /^suppressed: a failure notice went to this channel \d+ s ago \(minIntervalSeconds 60\)/,
    );
    expect(r.hook.seen).toHaveLength(2);
    expect((await statusOf(s, 'c1')).alerts.total24h).toBe(2);
  });
});
