// WEBHOOK formats pagerduty and opsgenie against loopback receivers that hold each
// request to the provider's published rules (test/helpers/providers.ts cites the
// pages): one provider alert per Checkwall alert, its key stable across trigger,
// acknowledge and resolve and different for another alert; a 429 and a 5xx retried,
// a 400 not, with the provider's error in the delivery log; the key masked. A degraded
// warning is one provider alert per check, closed when the check leaves degraded, and an
// alert closes there even when no person is told of its recovery. A certificate warning is
// one provider alert per check too, closed once the certificate is renewed.
import { afterEach, describe, expect, it } from 'vitest';
import { MASK, maskConfig } from '../../../../src/domain/mask.js';
import type { Fixture, SeenRequest } from '../../../helpers/fixture.js';
import { TEST_ACCOUNT } from '../../../helpers/configs.js';
import {
  alertConfig,
  closedAfterEach,
  notifications,
  post,
  runner,
  startAlertService,
  startReceivers,
  statusOf,
  type Receivers,
} from '../../../helpers/alerting.js';
import { opsgenieReceiver, pagerdutyReceiver, type Script } from '../../../helpers/providers.js';
import type { TestService } from '../../../helpers/service.js';
import { createFakeClock } from '../../../helpers/fake-clock.js';

const held = closedAfterEach();
let provider: (Fixture & { refused: string[][] }) | undefined;
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

const ROUTING_KEY = 'R0UT1NGKEY0123456789abcdefghijkl';
const API_KEY = 'genie-0123456789-abcdef';

function channelFor(format: 'pagerduty' | 'opsgenie', url: string, groupWindowSeconds?: number) {
  const key = format === 'pagerduty' ? { routingKey: ROUTING_KEY } : { apiKey: API_KEY };
  const target = format === 'pagerduty' ? `${url}/v2/enqueue` : url;
  return {
    type: 'WEBHOOK',
    name: format,
    subscriptions: { checks: ['c1', 'c2'] },
    config: { url: target, method: 'POST', format, ...key },
    ...(groupWindowSeconds === undefined ? {} : { groupWindowSeconds }),
  };
}

async function start(
  format: 'pagerduty' | 'opsgenie',
  script?: Script,
  groupWindowSeconds?: number,
): Promise<TestService> {
  provider = await (format === 'pagerduty' ? pagerdutyReceiver(script) : opsgenieReceiver(script));
  const r = (held.receivers = await startReceivers());
  const hostile = { name: `Check "quoted" \\ ${'long '.repeat(36)}` };
  const channel = channelFor(format, provider.url, groupWindowSeconds);
  const config = alertConfig(r, { channels: [channel], checks: { c1: hostile } });
  return (held.svc = await startAlertService(config));
}

/** Fails c1 (and acknowledges, then recovers it), and fails c2: every request the provider saw. */
async function lifeOfTwoAlerts(s: TestService) {
  const run = runner(s);
  await run('c1', ['failed', 'failed']);
  await expect.poll(() => provider!.seen.length).toBe(1);
  const alertId = (await statusOf(s, 'c1')).currentAlert!.id;
  expect((await post(s, `/v1/check-alerts/${alertId}/acknowledge`, {})).status).toBe(200);
  await expect.poll(() => provider!.seen.length).toBe(2);
  await run('c1', ['success', 'success', 'success']);
  await expect.poll(() => provider!.seen.length).toBe(3);
  await run('c2', ['failed', 'failed']);
  await expect.poll(() => provider!.seen.length).toBe(4);
  return {
    alertId,
    bodies: provider!.seen.map((q) => JSON.parse(q.body) as Record<string, Record<string, string> & string>),
  };
}

describe('WEBHOOK format pagerduty', () => {
  it('triggers, acknowledges and resolves one PagerDuty alert keyed by the alert id; another alert has its own', async () => {
    const s = await start('pagerduty');
    const { alertId, bodies } = await lifeOfTwoAlerts(s);
    expect(provider!.refused).toEqual([]);
    expect(bodies.map((b) => b['event_action'])).toEqual(['trigger', 'acknowledge', 'resolve', 'trigger']);
    expect(bodies.slice(0, 3).map((b) => b['dedup_key'])).toEqual([alertId, alertId, alertId]);
    expect(bodies[3]!['dedup_key']).not.toBe(alertId);
    const trigger = bodies[0]!;
    expect(trigger['routing_key']).toBe(ROUTING_KEY);
    expect(trigger['payload']).toMatchObject({ severity: 'critical', component: 'Frankfurt', class: 'api' });
    expect(trigger['payload']!.summary).toContain('Check "quoted" \\');
    expect(provider!.seen.every((q) => q.url === '/v2/enqueue' && q.method === 'POST')).toBe(true);
    expect(provider!.seen[1]!.headers['x-checkwall-event']).toBe('acknowledgement');
  });

  it('retries a 429 and a 503, takes a 400 for good with the provider error logged, and masks the key', async () => {
    const s = await start('pagerduty', (n) =>
      n === 1 ? { status: 429, headers: { 'retry-after': '1' } } : n === 2 ? { status: 503 } : undefined,
    );
    await runner(s)('c1', ['failed', 'failed']);
    await expect.poll(async () => (await notifications(s))[0]?.status, { timeout: 10_000 }).toBe('sent');
    expect((await notifications(s))[0]!.attempts).toBe(3);
    // A 400: PagerDuty's own answer names what is wrong (here echoing the key); it is not retried.
    provider!.handle((_q, res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      const errors = [`\u001b[31mbad routing key ${ROUTING_KEY}`];
      res.end(JSON.stringify({ status: 'invalid event', message: 'Event object is invalid', errors }));
    });
    await runner(s)('c2', ['failed', 'failed']);
    await expect.poll(async () => (await notifications(s, 'status=failed')).length).toBe(1);
    const [failed] = await notifications(s, 'status=failed');
    expect(failed).toMatchObject({ attempts: 1 });
    expect(failed!.lastError).toContain(
      'HTTP 400: the receiver refused the request: invalid event Event object is invalid',
    );
    expect(failed!.lastError).toContain('[redacted]');
    expect(failed!.lastError).not.toContain(ROUTING_KEY);
    expect(failed!.lastError).not.toContain('\u001b');
    expect(
      maskConfig(
        'WEBHOOK',
        { url: 'https://events.pagerduty.com/v2/enqueue', routingKey: ROUTING_KEY },
        false,
      ),
    ).toMatchObject({ routingKey: MASK });
  });
});

describe.each(['pagerduty', 'opsgenie'] as const)('WEBHOOK format %s given a grouping window', (format) => {
  it('still sends each alert at once under its own key: a group has one key, and its first recovery would close them all', async () => {
    // An hour's window (aligned on the clock): grouped, nothing would go during this test.
    const s = await start(format, undefined, 3600);
    const run = runner(s);
    await run('c1', ['failed', 'failed']);
    await run('c2', ['failed', 'failed']);
    await expect.poll(() => provider!.seen.length, { timeout: 10_000 }).toBe(2);
    expect(provider!.refused).toEqual([]);
    const keys = provider!.seen.map((q) => {
      const b = JSON.parse(q.body) as Record<string, string>;
      return b['dedup_key'] ?? b['alias'];
    });
    const alerts = [(await statusOf(s, 'c1')).currentAlert!.id, (await statusOf(s, 'c2')).currentAlert!.id];
    expect(keys.sort()).toEqual(alerts.sort());
  });
});

describe('WEBHOOK format opsgenie', () => {
  it('creates, acknowledges and closes one Opsgenie alert by alias = the alert id; another alert has its own', async () => {
    const s = await start('opsgenie');
    const { alertId, bodies } = await lifeOfTwoAlerts(s);
    expect(provider!.refused).toEqual([]);
    const paths = provider!.seen.map((q) => q.url);
    const enc = encodeURIComponent(alertId);
    expect(paths).toEqual([
      '/v2/alerts',
      `/v2/alerts/${enc}/acknowledge?identifierType=alias`,
      `/v2/alerts/${enc}/close?identifierType=alias`,
      '/v2/alerts',
    ]);
    expect(bodies[0]).toMatchObject({ alias: alertId, priority: 'P1', entity: 'Frankfurt' });
    // The 200-character check name is cut to Opsgenie's 130 with an ellipsis.
    expect(bodies[0]!['message']).toHaveLength(130);
    expect(bodies[0]!['message']!.endsWith('…')).toBe(true);
    expect(bodies[3]!['alias']).not.toBe(alertId);
    expect(provider!.seen[0]!.headers['authorization']).toBe(`GenieKey ${API_KEY}`);
  });

  it('refuses a method other than POST, naming config.method', async () => {
    const s = await start('opsgenie');
    const res = await post(s, '/v1/alert-channels', {
      type: 'WEBHOOK',
      name: 'og',
      config: { url: 'https://api.eu.opsgenie.com', method: 'PUT', format: 'opsgenie', apiKey: API_KEY },
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('config.method');
    expect(JSON.stringify(res.body)).toContain('must be POST for format opsgenie');
  });
});

/** What one request did to the provider's alert: [its key, 'open' | 'close' | 'other']. */
function actionOf(format: 'pagerduty' | 'opsgenie', q: SeenRequest): [string, string] {
  if (format === 'pagerduty') {
    const body = JSON.parse(q.body) as { dedup_key: string; event_action: string };
    const action = { trigger: 'open', resolve: 'close' }[body.event_action] ?? 'other';
    return [body.dedup_key, action];
  }
  if (q.url === '/v2/alerts') return [(JSON.parse(q.body) as { alias: string }).alias, 'open'];
  const [, alias, action] = /^\/v2\/alerts\/([^/]+)\/(\w+)\?/.exec(q.url) ?? [];
  return [decodeURIComponent(alias ?? ''), action === 'close' ? 'close' : 'other'];
}

/** A person's channel on c1 beside the tracker: it must hear nothing of a warning's end. */
const opsChat = (r: Receivers) => ({
  type: 'CHAT',
  name: 'Ops chat',
  subscriptions: { checks: ['c1'] },
  groupWindowSeconds: 0,
  config: { url: `${r.hook.url}/chat`, channel: '#ops' },
});

describe.each(['pagerduty', 'opsgenie'] as const)('WEBHOOK format %s and a degraded warning', (format) => {
  it('keeps one provider alert per warning, closes it when the check leaves degraded, and closes an alert no person hears recover', async () => {
    provider = await (format === 'pagerduty' ? pagerdutyReceiver() : opsgenieReceiver());
    const r = (held.receivers = await startReceivers());
    const chat = opsChat(r);
    const alerts = { c1: { onDegraded: true, onRecovery: false } };
    const channels = [channelFor(format, provider.url), chat];
    const s = (held.svc = await startAlertService(alertConfig(r, { channels, alerts })));
    const run = runner(s);
    await run('c1', ['success', 'success', 'failed']); // degraded: the warning
    await expect.poll(() => provider!.seen.length).toBe(1);
    await run('c1', ['failed']); // failing: the failure page, and the warning's end
    await expect.poll(() => provider!.seen.length).toBe(3);
    const alertId = (await statusOf(s, 'c1')).currentAlert!.id;
    await run('c1', ['success', 'success', 'success']); // passing, with onRecovery off
    await expect.poll(() => provider!.seen.length).toBe(4);
    expect(provider!.refused).toEqual([]);
    const warning = `degraded:${TEST_ACCOUNT}:c1`;
    const acts = provider!.seen.map((q) => actionOf(format, q));
    expect(acts[0]).toEqual([warning, 'open']);
    expect(acts.slice(1, 3)).toEqual(
      expect.arrayContaining([
        [alertId, 'open'],
        [warning, 'close'],
      ]),
    );
    expect(acts[3]).toEqual([alertId, 'close']);
    // The people's channel heard the warning and the failure, and no close.
    const sent = (await notifications(s)).map((n) => `${n.channel.name} ${n.event}`).sort();
    expect(sent).toEqual([
      'Ops chat degraded',
      'Ops chat failure',
      `${format} degraded`,
      `${format} degraded-end`,
      `${format} failure`,
      `${format} recovery`,
    ]);
    await expect.poll(() => r.hook.seen.length).toBe(2);
  });
});

const DAY_MS = 86_400_000;

/** The certificate a result was shown: `serial`, its chain expiring at `validTo`. */
const certificateOf = (serial: string, validTo: number) => ({
  subject: 'CN=shop.example.com',
  issuer: 'CN=R11',
  serialNumber: serial,
  validFrom: new Date(validTo - 90 * DAY_MS).toISOString(),
  validTo: new Date(validTo).toISOString(),
  daysRemaining: 0,
  chainValidTo: null,
  chainDaysRemaining: null,
});

describe.each(['pagerduty', 'opsgenie'] as const)('WEBHOOK format %s and a certificate warning', (format) => {
  it('keeps one provider alert per check across its thresholds, and closes it when the certificate is renewed', async () => {
    provider = await (format === 'pagerduty' ? pagerdutyReceiver() : opsgenieReceiver());
    const r = (held.receivers = await startReceivers());
    const chat = opsChat(r);
    const channels = [channelFor(format, provider.url), chat];
    const clock = createFakeClock(Date.now());
    const config = alertConfig(r, { channels });
    const s = (held.svc = await startAlertService(config, clock, { startScheduler: false }));
    let n = 0;
    const shown = (certificate: ReturnType<typeof certificateOf>) =>
      s.seed('c1', ['success'], { certificate, endAt: clock.now() + ++n * 1_000 });
    const old = certificateOf('0LD', clock.now() + 10 * DAY_MS + 3_600_000);

    await shown(old); // 10 days left: the 14-day warning
    await expect.poll(() => provider!.seen.length).toBe(1);
    clock.jump(4 * DAY_MS);
    await shown(old); // 6 days left: the 7-day one, the same provider alert
    await expect.poll(() => provider!.seen.length).toBe(2);
    await shown(certificateOf('NEW', clock.now() + 90 * DAY_MS)); // renewed: closed
    await expect.poll(() => provider!.seen.length).toBe(3);
    expect(provider!.refused).toEqual([]);
    const warning = `certificate:${TEST_ACCOUNT}:c1`;
    expect(provider!.seen.map((q) => actionOf(format, q))).toEqual([
      [warning, 'open'],
      [warning, 'open'],
      [warning, 'close'],
    ]);
    // The people's channel heard both thresholds, and no close.
    const sent = (await notifications(s)).map((n) => `${n.channel.name} ${n.event}`).sort();
    expect(sent).toEqual([
      'Ops chat certificate',
      'Ops chat certificate',
      `${format} certificate`,
      `${format} certificate`,
      `${format} certificate-end`,
    ]);
    expect(r.hook.seen).toHaveLength(2);
  });
});
