// What a maintenance window does to alerts (issue 33), through the real service:
// results by its run path, pages to a real webhook receiver on loopback, the delivery
// log read over HTTP. Held pages are logged `suppressed`, never sent; the end of the
// window over a check still failing pages once; a recovered one sends nothing.
import { describe, expect, it } from 'vitest';
import { AlertPayloadSchema } from '../../../src/api/schemas/index.js';
import { MaintenanceWindowSchema } from '../../../src/api/schemas/maintenance.js';
import {
  alertConfig,
  closedAfterEach,
  hookEvents,
  notifications,
  post,
  runner,
  startAlertService,
  startReceivers,
  statusOf,
  AUTH,
} from '../../helpers/alerting.js';
import { createFakeClock } from '../../helpers/fake-clock.js';
import { patch } from '../../helpers/http.js';

const held = closedAfterEach();

const silence = { name: 'deploy 4.2', reason: 'rolling deploy', scope: { checks: ['c1'] }, duration: '30m' };

describe('alerts under a maintenance window', () => {
  it('holds the failure page (suppressed, "maintenance: <name>"), then pages once when ended with the check still failing', async () => {
    const r = (held.receivers = await startReceivers());
    const s = (held.svc = await startAlertService(alertConfig(r, { alerts: { c1: { afterFailures: 2 } } })));
    const run = runner(s);
    await run('c1', ['success']);
    const created = await post(s, '/v1/maintenance-windows', silence);
    expect(created.status).toBe(201);
    const w = MaintenanceWindowSchema.parse(created.body);

    await run('c1', ['failed', 'failed', 'failed']);
    const status = await statusOf(s, 'c1');
    expect(status.status).toBe('failing');
    expect(status.maintenance).toMatchObject({
      id: w.id,
      name: 'deploy 4.2',
      mode: 'silence',
      startsAt: w.startsAt,
      endsAt: w.endsAt,
    });
    // The first of the holds (docs/alerts.md): the window, since its occurrence began.
    expect(status.heldBy).toEqual({
      kind: 'maintenance',
      id: w.id,
      name: 'deploy 4.2',
      since: w.startsAt,
      location: null,
    });
    await expect.poll(async () => (await notifications(s)).length).toBe(1);
    const [held1] = await notifications(s);
    expect(held1).toMatchObject({
      event: 'failure',
      status: 'suppressed',
      lastError: 'maintenance: deploy 4.2',
    });
    expect(r.hook.seen).toEqual([]);

    const ended = await patch(s, `/v1/maintenance-windows/${w.id}`, { endsAt: 'now' });
    expect(ended.status).toBe(200);
    await expect.poll(() => r.hook.seen.length).toBe(1);
    const page = AlertPayloadSchema.parse(JSON.parse(r.hook.seen[0]!.body));
    expect(page).toMatchObject({
      event: 'failure',
      check: { id: 'c1' },
      maintenance: { id: w.id, name: 'deploy 4.2', failingSince: status.currentAlert!.openedAt },
    });
    expect((await statusOf(s, 'c1')).maintenance).toBeNull();
    // Once: the next tick of the end timer finds it claimed, and further failures page nothing new.
    await run('c1', ['failed']);
    const log = await notifications(s);
    expect(log.filter((n) => n.status !== 'suppressed')).toHaveLength(1);
    expect(r.hook.seen).toHaveLength(1);

    // The recovery of that alert goes out: its failure was paged at the end.
    await run('c1', ['success', 'success', 'success']);
    await expect.poll(() => hookEvents(r).map((e) => e.event)).toEqual(['failure', 'recovery']);
  });

  it('notices the end by time on the service clock and pages once', async () => {
    const r = (held.receivers = await startReceivers());
    // At the real time: the results it seeds are as recent as the service's own.
    const clock = createFakeClock(Date.now());
    const s = (held.svc = await startAlertService(
      alertConfig(r, { alerts: { c1: { afterFailures: 2 } } }),
      clock,
    ));
    const run = runner(s, clock);
    await run('c1', ['success']);
    const w = MaintenanceWindowSchema.parse((await post(s, '/v1/maintenance-windows', silence)).body);
    await run('c1', ['failed', 'failed', 'failed']);
    await expect.poll(async () => (await notifications(s)).map((n) => n.status)).toEqual(['suppressed']);
    clock.jump(31 * 60_000);
    // The end timer (every second, on the service's clock) finds the occurrence over.
    await clock.advance(1_000);
    await expect.poll(() => r.hook.seen.length, { timeout: 10_000 }).toBe(1);
    expect(AlertPayloadSchema.parse(JSON.parse(r.hook.seen[0]!.body)).maintenance).toMatchObject({
      id: w.id,
    });
    expect((await statusOf(s, 'c1')).maintenance).toBeNull();
    const window = await fetch(`${s.url}/v1/maintenance-windows/${w.id}`, { headers: AUTH });
    expect(MaintenanceWindowSchema.parse(await window.json()).state).toBe('ended');
    await expect
      .poll(async () => (await notifications(s)).filter((n) => n.status !== 'suppressed').length)
      .toBe(1);
  });

  it('sends nothing when the check recovered inside the window', async () => {
    const r = (held.receivers = await startReceivers());
    const s = (held.svc = await startAlertService(alertConfig(r, { alerts: { c1: { afterFailures: 2 } } })));
    const run = runner(s);
    await run('c1', ['success']);
    const w = MaintenanceWindowSchema.parse((await post(s, '/v1/maintenance-windows', silence)).body);
    await run('c1', ['failed', 'failed', 'failed']);
    await run('c1', ['success', 'success', 'success']);
    await expect
      .poll(async () => (await notifications(s)).map((n) => `${n.event}/${n.status}`))
      .toEqual(['recovery/suppressed', 'failure/suppressed']);
    expect((await patch(s, `/v1/maintenance-windows/${w.id}`, { endsAt: 'now' })).status).toBe(200);
    // The end is handled inside the PATCH: by its answer, a page would be in the log.
    expect((await notifications(s)).every((n) => n.status === 'suppressed')).toBe(true);
    expect(r.hook.seen).toEqual([]);
  });

  it('holds the reminder of an alert opened before the window, logged with the window named', async () => {
    const r = (held.receivers = await startReceivers());
    // At the real time: the results it seeds are as recent as the service's own.
    const clock = createFakeClock(Date.now());
    const s = (held.svc = await startAlertService(
      alertConfig(r, { alerts: { c1: { afterFailures: 2, remindEveryMinutes: 10 } } }),
      clock,
    ));
    const run = runner(s, clock);
    await run('c1', ['success', 'failed', 'failed']);
    await expect.poll(() => hookEvents(r).map((e) => e.event)).toEqual(['failure']);
    expect((await post(s, '/v1/maintenance-windows', { ...silence, duration: '2h' })).status).toBe(201);
    clock.jump(11 * 60_000);
    // The reminder sweep (every 5 s) finds it due: held, not sent.
    await clock.advance(5_000);
    await expect
      .poll(async () => (await notifications(s)).map((n) => `${n.event}/${n.status}/${n.lastError}`), {
        timeout: 15_000,
      })
      .toContain('reminder/suppressed/maintenance: deploy 4.2');
    expect(hookEvents(r).map((e) => e.event)).toEqual(['failure']);
  });

  it('lets the recovery of an alert opened before the window go out', async () => {
    const r = (held.receivers = await startReceivers());
    const s = (held.svc = await startAlertService(alertConfig(r, { alerts: { c1: { afterFailures: 2 } } })));
    const run = runner(s);
    await run('c1', ['success', 'failed', 'failed']);
    await expect.poll(() => hookEvents(r).map((e) => e.event)).toEqual(['failure']);
    expect((await post(s, '/v1/maintenance-windows', silence)).status).toBe(201);
    await run('c1', ['success', 'success', 'success']);
    await expect.poll(() => hookEvents(r).map((e) => e.event)).toEqual(['failure', 'recovery']);
  });
});
