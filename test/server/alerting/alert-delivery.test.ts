// How notifications are delivered: retries on 5xx and 429 (with Retry-After),
// a 4xx for good, giving up, a receiver that hangs holding only its own
// channel, the test event, and a channel whose transport is not configured.
import { describe, expect, it } from 'vitest';
import { CheckResultListSchema } from '../../../src/api/schemas/index.js';
import { json } from '../../helpers/fixture.js';
import {
  alertConfig,
  AUTH,
  hookChannel,
  notifications,
  post,
  runner,
  startAlertService,
  startReceivers,
  statusOf,
  closedAfterEach,
} from '../../helpers/alerting.js';
import type { TestService } from '../../helpers/service.js';

const held = closedAfterEach();

const settled = async (s: TestService) => (await notifications(s)).filter((n) => n.status !== 'pending');

describe('delivery', () => {
  it('retries a 503 and a 429 (waiting its Retry-After) with the same delivery id, then is sent', async () => {
    const r = (held.receivers = await startReceivers());
    r.hook.handle((_req, res, n) => {
      if (n === 1) json(res, 503, {});
      else if (n === 2) json(res, 429, {}, { 'retry-after': '1' });
      else json(res, 200, {});
    });
    const s = (held.svc = await startAlertService(alertConfig(r)));
    await runner(s)('c1', ['failed', 'failed']);
    await expect.poll(() => settled(s), { timeout: 10_000 }).toHaveLength(1);
    const [n] = await notifications(s);
    expect(n).toMatchObject({ event: 'failure', status: 'sent', attempts: 3, lastError: null });
    expect(new Set(r.hook.seen.map((x) => x.headers['x-checkwall-delivery']))).toEqual(new Set([n!.id]));
    expect(r.hook.seen[2]!.at - r.hook.seen[1]!.at).toBeGreaterThanOrEqual(950);
  });

  it('takes a 400 as permanent: one attempt, failed, and the check shows an undelivered alert', async () => {
    const r = (held.receivers = await startReceivers());
    r.hook.handle((_req, res) => json(res, 400, { error: 'no' }));
    const s = (held.svc = await startAlertService(alertConfig(r)));
    await runner(s)('c1', ['failed', 'failed']);
    await expect.poll(() => settled(s)).toHaveLength(1);
    expect((await notifications(s))[0]).toMatchObject({
      status: 'failed',
      attempts: 1,
      lastError: 'HTTP 400: the receiver refused the request',
      sentAt: null,
    });
    await expect.poll(async () => (await statusOf(s, 'c1')).currentAlert?.undelivered).toBe(1);
    expect(r.hook.seen).toHaveLength(1);
    const failed = await notifications(s, 'status=failed');
    expect(failed).toHaveLength(1);
    expect(await notifications(s, 'status=sent')).toEqual([]);
  });

  it('gives up after maxAttempts', async () => {
    const r = (held.receivers = await startReceivers());
    r.hook.handle((_req, res) => json(res, 502, {}));
    const s = (held.svc = await startAlertService(alertConfig(r, { delivery: { maxAttempts: 3 } })));
    await runner(s)('c1', ['failed', 'failed']);
    await expect.poll(() => settled(s), { timeout: 10_000 }).toHaveLength(1);
    expect((await notifications(s))[0]).toMatchObject({
      status: 'failed',
      attempts: 3,
      lastError: 'HTTP 502 (gave up after 3 attempts)',
    });
    expect(r.hook.seen).toHaveLength(3);
  });

  it('lets a receiver that hangs hold only its own channel: runs go on, other channels deliver', async () => {
    const r = (held.receivers = await startReceivers());
    r.hook.handle((req, res) => {
      if (req.url.startsWith('/hang')) return; // never answers
      json(res, 200, {});
    });
    const hanging = { ...hookChannel(r, { checks: ['c1'] }), name: 'hangs' };
    hanging.config = { ...hanging.config, url: `${r.hook.url}/hang` };
    const config = alertConfig(r, {
      checks: { c1: { frequency: '1s', locations: ['eu-west'] } },
      channels: [
        hanging,
        {
          type: 'CHAT',
          name: 'chat',
          subscriptions: { checks: ['c1'] },
          groupWindowSeconds: 0,
          config: { url: `${r.hook.url}/chat` },
        },
      ],
    });
    const s = (held.svc = await startAlertService(config, undefined, { startScheduler: true }));
    // The check's target refuses connections: every run fails, the alert fires.
    const paths = () => r.hook.seen.map((x) => x.url.split('?')[0]);
    await expect.poll(() => [...new Set(paths())].sort(), { timeout: 15_000 }).toEqual(['/chat', '/hang']);
    const runsAtHang = await resultCount(s);
    // While the hook hangs, the scheduler keeps running the check.
    await expect.poll(() => resultCount(s), { timeout: 10_000 }).toBeGreaterThanOrEqual(runsAtHang + 2);
    expect(paths().filter((p) => p === '/hang')).toHaveLength(1);
    const log = await notifications(s);
    expect(log.find((n) => n.channel.name === 'chat')).toMatchObject({ status: 'sent' });
    await expect
      .poll(async () => (await notifications(s)).find((n) => n.channel.name === 'hangs')?.lastError, {
        timeout: 20_000,
      })
      .toBe('timed out after 10 s');
  });

  it('answers a test event with its outcome', async () => {
    const r = (held.receivers = await startReceivers());
    const s = (held.svc = await startAlertService(alertConfig(r)));
    const ok = await post(s, '/v1/alert-channels/1/test');
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({
      event: 'test',
      status: 'sent',
      attempts: 1,
      check: null,
      lastError: null,
    });
    expect(JSON.parse(r.hook.seen[0]!.body)).toMatchObject({
      event: 'test',
      check: null,
      deliveryId: ok.body['id'],
    });
    r.hook.handle((_req, res) => json(res, 503, {}));
    const bad = await post(s, '/v1/alert-channels/1/test');
    expect(bad.body).toMatchObject({ status: 'failed', attempts: 1, lastError: 'HTTP 503' });
    expect((await post(s, '/v1/alert-channels/99/test')).status).toBe(404);
    // It takes no body: one with keys is refused, and nothing more is sent.
    const withBody = await post(s, '/v1/alert-channels/1/test', { event: 'failure' });
    expect(withBody.status).toBe(400);
    expect(withBody.body['details']).toEqual([{ path: 'event', message: 'unknown key "event"' }]);
    expect(r.hook.seen).toHaveLength(2);
    expect(
      (
        await post(s, '/v1/alert-channels/1/test', undefined, {
          ...AUTH,
          authorization: 'Bearer nope-nope-nope-nope',
        })
      ).status,
    ).toBe(401);
  });

  it('logs a channel without its transport as failed, saying why', async () => {
    const r = (held.receivers = await startReceivers());
    const config = alertConfig(r, {
      service: { smtp: undefined, sms: undefined },
      channels: [
        {
          type: 'EMAIL',
          name: 'mail',
          subscriptions: { checks: ['c1'] },
          groupWindowSeconds: 0,
          config: { address: 'oncall@example.test' },
        },
        {
          type: 'PHONE',
          name: 'call',
          subscriptions: { checks: ['c1'] },
          groupWindowSeconds: 0,
          config: { number: '+14155550123', name: 'x' },
        },
      ],
    });
    const s = (held.svc = await startAlertService(config));
    expect(await s.alerting.warning()).toBe(
      'alert channels that cannot deliver: "mail" (EMAIL), "call" (PHONE): set "smtp" for EMAIL and "sms" for SMS and PHONE in the config; their notifications are logged as failed',
    );
    await runner(s)('c1', ['failed', 'failed']);
    await expect.poll(() => settled(s)).toHaveLength(2);
    expect((await notifications(s)).map((n) => [n.channel.name, n.status, n.lastError]).sort()).toEqual([
      ['call', 'failed', 'PHONE channels need "sms" in the service config; none is set'],
      ['mail', 'failed', 'EMAIL channels need "smtp" in the service config; none is set'],
    ]);
  });
});

async function resultCount(s: TestService): Promise<number> {
  const res = await fetch(`${s.url}/v1/check-results/c1?period=1h&limit=1&includeSummary=false`, {
    headers: AUTH,
  });
  return CheckResultListSchema.parse(await res.json()).meta.totalItems;
}
