// Channels over the API (subscriptions, the signing secret shown once) and the
// transports of every type on loopback: e-mail through a real SMTP server, SMS
// and calls to a Twilio-shaped provider. Secrets stay out of the delivery log.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AlertChannelListSchema, AlertChannelSchema } from '../../../src/api/schemas/index.js';
import {
  alertConfig,
  AUTH,
  get,
  HEADER_SECRET,
  HOOK_SECRET,
  hookChannel,
  notifications,
  post,
  put,
  runner,
  SMS_TOKEN,
  SMTP_PASSWORD,
  startAlertService,
  startReceivers,
  verifySignature,
  closedAfterEach,
} from '../../helpers/alerting.js';
import { TEST_KEY } from '../../helpers/service.js';

const held = closedAfterEach();

const webhookBody = (url: string) => ({
  type: 'WEBHOOK',
  name: 'api hook',
  config: { url, method: 'PUT', headers: [{ key: 'X-Token', value: 'hdr-value-123' }] },
  subscriptions: { checks: ['c2'], groups: ['edge'] },
});

describe('subscriptions over the API', () => {
  it('are created with the channel, read, replaced, and checked', async () => {
    const r = (held.receivers = await startReceivers());
    const s = (held.svc = await startAlertService(alertConfig(r)));
    const created = await post(s, '/v1/alert-channels', webhookBody(`${r.hook.url}/api`));
    expect(created.status).toBe(201);
    const channel = AlertChannelSchema.parse(created.body);
    expect(channel.subscriptions).toEqual({ checks: ['c2'], groups: ['edge'], locations: [] });
    const path = `/v1/alert-channels/${channel.id}/subscriptions`;
    expect((await get(s, path)).body).toEqual({ checks: ['c2'], groups: ['edge'], locations: [] });
    // A location's outages (docs/alerts.md, "A broken location") are heard by subscribing to it.
    const replaced = await put(s, path, { checks: ['c3', 'c3'], groups: [], locations: ['us-east'] });
    expect(replaced).toEqual({ status: 200, body: { checks: ['c3'], groups: [], locations: ['us-east'] } });
    const bad = await put(s, path, { checks: ['c1', 'nope'], groups: ['ghost'], locations: ['mars'] });
    expect(bad.status).toBe(400);
    expect(bad.body['message']).toBe('unknown in this account: check "nope", group "ghost", location "mars"');
    expect(bad.body['details']).toEqual([
      { path: 'checks[1]', message: 'no check "nope" in this account' },
      { path: 'groups[0]', message: 'no group "ghost" in this account' },
      { path: 'locations[0]', message: 'no location "mars" in this account' },
    ]);
    expect((await put(s, path, { checks: [], extra: 1 })).status).toBe(400);
    // A PUT without a body is a slip (curl -X PUT without -d), not "serve nothing": refused, the set kept.
    const empty = await fetch(`${s.url}${path}`, { method: 'PUT', headers: AUTH });
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as { message: string }).message).toMatch(/subscriptions: .*body/);
    expect((await get(s, path)).body).toEqual({ checks: ['c3'], groups: [], locations: ['us-east'] });
    expect((await get(s, '/v1/alert-channels/999/subscriptions')).status).toBe(404);
    // The one change made is in the audit trail, with what the channel serves from then on.
    const audit = await get(s, '/v1/audit-events?action=channel.subscriptions');
    expect(
      (audit.body['data'] as Array<{ targetId: string; details: unknown }>).map((e) => [
        e.targetId,
        e.details,
      ]),
    ).toEqual([[String(channel.id), { checks: ['c3'], groups: [], locations: ['us-east'] }]]);
    expect((await get(s, path, { 'x-service-account': AUTH['x-service-account'] })).status).toBe(401);
    // The other account's check is unknown here.
    expect(
      (
        await post(s, '/v1/alert-channels', {
          ...webhookBody(r.hook.url),
          subscriptions: { checks: ['secret'] },
        })
      ).status,
    ).toBe(400);
  });

  it('shows the signing secret once, then masked; deliveries are signed with it', async () => {
    const r = (held.receivers = await startReceivers());
    const s = (held.svc = await startAlertService(alertConfig(r)));
    const created = await post(s, '/v1/alert-channels', webhookBody(`${r.hook.url}/api`));
    const secret = String(created.body['signingSecret']);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const list = AlertChannelListSchema.parse((await get(s, '/v1/alert-channels')).body);
    const listed = list.data.find((c) => c.id === created.body['id'])!;
    expect(listed.signingSecret).toBe(`whsec_•••${secret.slice(-4)}`);
    expect(list.data[0]!.signingSecret).toBe(`whsec_•••${HOOK_SECRET.slice(-4)}`);
    const test = await post(s, `/v1/alert-channels/${String(created.body['id'])}/test`);
    expect(test.body['status']).toBe('sent');
    const req = r.hook.seen.at(-1)!;
    expect(req.method).toBe('PUT');
    expect(req.headers['x-token']).toBe('hdr-value-123');
    expect(verifySignature(secret, req.body, req.headers['x-checkwall-signature'])).toBe(true);
    expect(listed).toMatchObject({ lastDelivery: null, failures24h: 0 });
    const after = AlertChannelListSchema.parse((await get(s, '/v1/alert-channels')).body);
    expect(after.data.find((c) => c.id === listed.id)).toMatchObject({
      lastDelivery: { id: test.body['id'], event: 'test', status: 'sent' },
      failures24h: 0,
    });
  });

  it('reach a check added to a subscribed group later', async () => {
    const r = (held.receivers = await startReceivers());
    const dbPath = join(mkdtempSync(join(tmpdir(), 'checkwall-alerts-')), 'alerts.db');
    const channels = [hookChannel(r, { groups: ['core'] })];
    const first = await startAlertService(alertConfig(r, { channels }), undefined, { dbPath });
    await first.close();
    // The config gains c4 in group core; the channel, kept in the database, serves it.
    const c4 = {
      id: 'c4',
      name: 'Added later',
      type: 'api',
      target: 'http://127.0.0.1:9/',
      locations: ['eu-west'],
      group: 'core',
    };
    const s = (held.svc = await startAlertService(
      alertConfig(r, { channels, extraChecks: [c4] }),
      undefined,
      {
        dbPath,
      },
    ));
    await runner(s)('c4', ['failed', 'failed']);
    await expect.poll(() => r.hook.seen.length).toBe(1);
    expect(JSON.parse(r.hook.seen[0]!.body)).toMatchObject({ event: 'failure', check: { id: 'c4' } });
    await runner(s)('c1', ['failed', 'failed']); // group edge: not subscribed
    await runner(s)('c2', ['failed', 'failed']); // group core
    await expect.poll(() => r.hook.seen.length).toBe(2);
    expect((await notifications(s)).map((n) => n.check?.id)).toEqual(['c2', 'c4']);
  });
});

describe('transports', () => {
  it('send e-mail through SMTP with auth, a text and an HTML part', async () => {
    const r = (held.receivers = await startReceivers());
    const config = alertConfig(r, {
      channels: [
        {
          type: 'EMAIL',
          name: 'mail',
          subscriptions: { checks: ['c1'] },
          groupWindowSeconds: 0,
          config: { address: 'oncall@example.test' },
        },
      ],
    });
    const s = (held.svc = await startAlertService(config));
    const run = runner(s);
    await run('c1', ['failed', 'failed']);
    await expect.poll(() => r.smtp.mails.length).toBe(1);
    const mail = r.smtp.mails[0]!;
    expect(mail).toMatchObject({
      from: 'checkwall@example.test',
      to: ['oncall@example.test'],
      user: 'alerts',
    });
    expect(mail.raw).toMatch(/^Subject: \[FAILING\] Check 0001$/m);
    expect(mail.raw).toMatch(/Content-Type: text\/plain/);
    expect(mail.raw).toMatch(/Content-Type: text\/html/);
    expect(mail.raw).toContain('Check 0001 is failing at Frankfurt.');
    await run('c1', ['success', 'success', 'success']);
    await expect.poll(() => r.smtp.mails.length).toBe(2);
    expect(r.smtp.mails[1]!.raw).toMatch(/^Subject: \[RECOVERED\] Check 0001$/m);
    expect((await notifications(s)).map((n) => n.status)).toEqual(['sent', 'sent']);
  });

  it('send SMS and calls in the Twilio REST shape', async () => {
    const r = (held.receivers = await startReceivers());
    const config = alertConfig(r, {
      channels: [
        {
          type: 'SMS',
          name: 'pager',
          subscriptions: { checks: ['c1'] },
          groupWindowSeconds: 0,
          config: { number: '+14155550123', name: 'p' },
        },
        {
          type: 'PHONE',
          name: 'call',
          subscriptions: { checks: ['c1'] },
          groupWindowSeconds: 0,
          config: { number: '+4915112345678', name: 'c' },
        },
      ],
    });
    const s = (held.svc = await startAlertService(config));
    await runner(s)('c1', ['failed', 'failed']);
    await expect.poll(() => r.twilio.seen.length).toBe(2);
    const byPath = Object.fromEntries(r.twilio.seen.map((q) => [q.url, q]));
    const sms = byPath['/2010-04-01/Accounts/AC123/Messages.json']!;
    const call = byPath['/2010-04-01/Accounts/AC123/Calls.json']!;
    for (const req of [sms, call]) {
      expect(req.method).toBe('POST');
      expect(req.headers['authorization']).toBe(
        `Basic ${Buffer.from(`AC123:${SMS_TOKEN}`).toString('base64')}`,
      );
      expect(req.headers['content-type']).toBe('application/x-www-form-urlencoded');
    }
    const smsForm = new URLSearchParams(sms.body);
    expect(smsForm.get('To')).toBe('+14155550123');
    expect(smsForm.get('From')).toBe('+15550000000');
    expect(smsForm.get('Body')).toMatch(/^\[FAILING\] Check 0001 is failing at Frankfurt: assertion/);
    const callForm = new URLSearchParams(call.body);
    expect(callForm.get('To')).toBe('+4915112345678');
    expect(callForm.get('Twiml')).toBe(
      '<Response><Say>Checkwall alert. Check 0001 is failing at Frankfurt.</Say></Response>',
    );
  });

  it('keep the key and every secret out of the delivery log, even from failures', async () => {
    const r = (held.receivers = await startReceivers());
    r.hook.handle((_req, res) => res.writeHead(401).end(`you sent ${HEADER_SECRET}`));
    r.twilio.handle((_req, res) => res.writeHead(500).end(SMS_TOKEN));
    const config = alertConfig(r, {
      delivery: { maxAttempts: 2 },
      service: {
        smtp: { url: r.smtp.url.replace(SMTP_PASSWORD, `${SMTP_PASSWORD}x`), from: 'c@example.test' },
      },
      channels: [
        hookChannel(r, { checks: ['c1'] }),
        {
          type: 'SMS',
          name: 'pager',
          subscriptions: { checks: ['c1'] },
          groupWindowSeconds: 0,
          config: { number: '+14155550123', name: 'p' },
        },
        {
          type: 'EMAIL',
          name: 'mail',
          subscriptions: { checks: ['c1'] },
          groupWindowSeconds: 0,
          config: { address: 'a@example.test' },
        },
      ],
    });
    const s = (held.svc = await startAlertService(config));
    await runner(s)('c1', ['failed', 'failed']);
    await expect
      .poll(async () => (await notifications(s)).filter((n) => n.status === 'failed').length, {
        timeout: 10_000,
      })
      .toBe(3);
    const text = JSON.stringify(await notifications(s));
    for (const secret of [TEST_KEY, HOOK_SECRET, HEADER_SECRET, SMS_TOKEN, SMTP_PASSWORD])
      expect(text).not.toContain(secret);
    // The channel list shows header values as stored (spec 2.4), never the signing secret.
    expect(JSON.stringify((await get(s, '/v1/alert-channels')).body)).not.toContain(HOOK_SECRET);
    expect((await notifications(s)).map((n) => n.lastError).sort()).toEqual([
      'HTTP 401: the receiver refused the request',
      'HTTP 500 (gave up after 2 attempts)',
      'SMTP 535: the mail server refused the credentials',
    ]);
  });
});
