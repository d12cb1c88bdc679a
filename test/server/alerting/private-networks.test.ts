// A WEBHOOK or CHAT channel cannot be aimed inside the service's network: by
// default a delivery or a channel test to loopback, link-local or private
// addresses is refused, judged on the address connected to (after DNS), with the
// reason in the delivery log. The operator opens all of it or listed ranges.
// Channel creation refuses header injection and credentials in a URL.
import { describe, expect, it } from 'vitest';
import type { AlertNotification } from '../../../src/api/schemas/index.js';
import { ServiceConfigSchema } from '../../../src/server/config/schema.js';
import {
  alertConfig,
  closedAfterEach,
  post,
  startAlertService,
  startReceivers,
  type Receivers,
} from '../../helpers/alerting.js';

const held = closedAfterEach();
const LOOPBACK_REFUSED =
  'refused: 127.0.0.1 is a loopback address; set alertDelivery.allowPrivateNetworks or alertDelivery.allowedNetworks to allow it';

async function serviceWith(delivery: Record<string, unknown>, r?: Receivers) {
  const receivers = (held.receivers = r ?? (await startReceivers()));
  const svc = (held.svc = await startAlertService(alertConfig(receivers, { delivery, channels: [] })));
  return { r: receivers, svc };
}

async function testOf(svc: { url: string }, body: unknown): Promise<AlertNotification> {
  const created = await post(svc, '/v1/alert-channels', body);
  expect(created.status).toBe(201);
  const tested = await post(svc, `/v1/alert-channels/${String(created.body['id'])}/test`);
  expect(tested.status).toBe(200);
  return tested.body as unknown as AlertNotification;
}

const hook = (url: string) => ({ type: 'WEBHOOK', name: 'hook', config: { url, method: 'POST' } });
const chat = (url: string) => ({ type: 'CHAT', name: 'room', config: { url } });

describe('deliveries to private networks', () => {
  it('refuses loopback by default, for WEBHOOK and CHAT, and never connects', async () => {
    const { r, svc } = await serviceWith({ allowPrivateNetworks: false });
    const webhook = await testOf(svc, hook(`${r.hook.url}/hook`));
    expect(webhook).toMatchObject({ status: 'failed', lastError: LOOPBACK_REFUSED });
    const room = await testOf(svc, chat(`${r.hook.url}/chat`));
    expect(room).toMatchObject({ status: 'failed', lastError: LOOPBACK_REFUSED });
    // Refused at once, not retried: the answer would be the same.
    expect(webhook.attempts).toBe(1);
    expect(r.hook.seen).toHaveLength(0);
  });

  it('refuses a name that resolves inside (localhost), and the metadata address', async () => {
    const { r, svc } = await serviceWith({ allowPrivateNetworks: false });
    const port = new URL(r.hook.url).port;
    const named = await testOf(svc, hook(`http://localhost:${port}/hook`));
    expect(named.status).toBe('failed');
    expect(named.lastError).toMatch(/^refused: (127\.0\.0\.1|::1) is a loopback address; .*\(localhost\)$/);
    const metadata = await testOf(svc, hook('http://169.254.169.254/latest/meta-data/'));
    expect(metadata.lastError).toMatch(/^refused: 169\.254\.169\.254 is a link-local address;/);
    const uniqueLocal = await testOf(svc, hook('http://[fd00::1]/'));
    expect(uniqueLocal.lastError).toMatch(/^refused: fd00::1 is a unique-local address;/);
    expect(r.hook.seen).toHaveLength(0);
  });

  it('delivers to loopback with allowPrivateNetworks', async () => {
    const { r, svc } = await serviceWith({ allowPrivateNetworks: true });
    expect(await testOf(svc, hook(`${r.hook.url}/hook`))).toMatchObject({ status: 'sent', lastError: null });
    expect(r.hook.seen).toHaveLength(1);
  });

  it('delivers to a range listed in allowedNetworks, and only there', async () => {
    const { r, svc } = await serviceWith({ allowPrivateNetworks: false, allowedNetworks: ['127.0.0.0/8'] });
    expect(await testOf(svc, hook(`${r.hook.url}/hook`))).toMatchObject({ status: 'sent' });
    expect((await testOf(svc, hook('http://10.0.0.1:9/'))).lastError).toMatch(
      /^refused: 10\.0\.0\.1 is a private address;/,
    );
    expect(r.hook.seen).toHaveLength(1);
  });

  it("leaves the operator's own transport (sms.baseUrl on loopback) alone", async () => {
    const { r, svc } = await serviceWith({ allowPrivateNetworks: false });
    const sms = await testOf(svc, {
      type: 'SMS',
      name: 'pager',
      config: { number: '+14155550123', name: 'On call' },
    });
    expect(sms).toMatchObject({ status: 'sent' });
    expect(r.twilio.seen).toHaveLength(1);
  });

  it('validates allowedNetworks as CIDR ranges at load', () => {
    const bad = ServiceConfigSchema.safeParse({
      alertDelivery: { allowedNetworks: ['10.0.0.0/8', '10.0.0.1'] },
    });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]).toMatchObject({
      path: ['alertDelivery', 'allowedNetworks', 1],
      message: 'must be a CIDR range, e.g. 10.1.0.0/16 or fd00::/8',
    });
    expect(
      ServiceConfigSchema.parse({ alertDelivery: { allowedNetworks: ['fd00::/8'] } }).alertDelivery,
    ).toMatchObject({
      allowPrivateNetworks: false,
      allowedNetworks: ['fd00::/8'],
    });
  });
});

describe('channel creation', () => {
  it('refuses a CR or LF in a header name or value, naming the field', async () => {
    const { svc } = await serviceWith({ allowPrivateNetworks: false });
    const body = (key: string, value: string) => ({
      type: 'WEBHOOK',
      name: 'hook',
      config: {
        url: 'https://hooks.example.test/x',
        method: 'POST',
        headers: [
          { key: 'ok', value: 'v' },
          { key, value },
        ],
      },
    });
    for (const [key, value, field] of [
      ['X-A', 'v\r\nX-Injected: 1', 'config.headers[1].value'],
      ['X-A\nX-B', 'v', 'config.headers[1].key'],
    ] as const) {
      const res = await post(svc, '/v1/alert-channels', body(key, value));
      expect(res.status).toBe(400);
      expect(res.body['details']).toContainEqual({
        path: field,
        message: 'must not contain a line break (CR or LF)',
      });
    }
  });

  it('refuses a URL with credentials in it, for WEBHOOK and CHAT', async () => {
    const { svc } = await serviceWith({ allowPrivateNetworks: false });
    for (const body of [
      hook('https://user:pass@hooks.example.test/x'),
      chat('https://token@chat.example.test/x'),
    ]) {
      const res = await post(svc, '/v1/alert-channels', body);
      expect(res.status).toBe(400);
      expect(res.body['details']).toContainEqual({
        path: 'config.url',
        message: 'must not carry credentials (user:pass@): send them in a header instead',
      });
    }
  });
});
