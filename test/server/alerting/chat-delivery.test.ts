// CHAT channels speaking their service's dialect, end to end: a failing check's
// page goes through the outbox to a loopback receiver per service (real HTTP,
// allowPrivateNetworks as the demo sets it), each in its own shape; a channel
// test answers with the body sent and the receiver's answer, the bot token
// masked; the config is refused with a message naming the field.
import { describe, expect, it } from 'vitest';
import { CHAT_SERVICES, type AlertNotification } from '../../../src/api/schemas/index.js';
import { MASK } from '../../../src/domain/mask.js';
import { json } from '../../helpers/fixture.js';
import {
  alertConfig,
  closedAfterEach,
  notifications,
  post,
  runner,
  startAlertService,
  startReceivers,
} from '../../helpers/alerting.js';

const held = closedAfterEach();
const TOKEN = '123456789:AAEhBOweik6ad9r_QXMENQjcrGbqCr4K-ra';

const chatChannel = (base: string, service: (typeof CHAT_SERVICES)[number]) => ({
  type: 'CHAT',
  name: `room ${service}`,
  subscriptions: { checks: ['c1'] },
  groupWindowSeconds: 0,
  config:
    service === 'telegram'
      ? { url: base, service, botToken: TOKEN, chatId: '-100123' }
      : { url: `${base}/${service}`, service, ...(service === 'slack' ? { channel: '#ops' } : {}) },
});

describe('chat dialects end to end', () => {
  it('delivers a failure through the outbox to each service in its own shape', async () => {
    const r = (held.receivers = await startReceivers());
    const channels = CHAT_SERVICES.map((s) => chatChannel(r.hook.url, s));
    const svc = (held.svc = await startAlertService(alertConfig(r, { channels })));
    await runner(svc)('c1', ['failed', 'failed']);
    await expect.poll(() => r.hook.seen.length, { timeout: 10_000 }).toBe(CHAT_SERVICES.length);
    const at = (path: string) => r.hook.seen.find((s) => s.url === path)!;
    const body = (path: string) => JSON.parse(at(path).body) as Record<string, unknown>;
    expect(body('/slack')).toMatchObject({
      channel: '#ops',
      blocks: expect.any(Array),
      text: expect.any(String),
    });
    expect(body('/mattermost')).toMatchObject({ text: expect.stringContaining('Check 0001') });
    expect(body('/msteams')).toMatchObject({
      type: 'message',
      attachments: [{ content: { type: 'AdaptiveCard' } }],
    });
    expect(body('/discord')).toMatchObject({ allowed_mentions: { parse: [] }, embeds: [expect.any(Object)] });
    expect(body('/googlechat')).toMatchObject({ cardsV2: [expect.any(Object)] });
    expect(body(`/bot${TOKEN}/sendMessage`)).toMatchObject({ chat_id: '-100123', parse_mode: 'MarkdownV2' });
    const ntfy = at('/ntfy');
    expect(ntfy.headers).toMatchObject({ 'x-priority': '5', 'x-tags': 'rotating_light' });
    expect(ntfy.body).toContain('Check 0001');
    const sent = await notifications(svc);
    expect(sent.map((n) => [n.event, n.status])).toEqual(CHAT_SERVICES.map(() => ['failure', 'sent']));
  });

  it('delivers to each service a runbook and a link with a space and non-ASCII characters', async () => {
    const r = (held.receivers = await startReceivers());
    const channels = CHAT_SERVICES.map((s) => chatChannel(r.hook.url, s));
    // The config takes these addresses; an HTTP header (ntfy's X-Actions) cannot carry them as they are.
    const book = {
      runbook: 'https://wiki.example.test/Störung runbook/中',
      links: [{ name: 'Dash', url: 'https://dash.example.test/d/中 文?q=ü' }],
    };
    const svc = (held.svc = await startAlertService(alertConfig(r, { channels, checks: { c1: book } })));
    await runner(svc)('c1', ['failed', 'failed']);
    await expect.poll(() => r.hook.seen.length, { timeout: 10_000 }).toBe(CHAT_SERVICES.length);
    const sent = await notifications(svc);
    expect(sent.map((n) => [n.event, n.status])).toEqual(CHAT_SERVICES.map(() => ['failure', 'sent']));
    const encoded = 'https://wiki.example.test/St%C3%B6rung%20runbook/%E4%B8%AD';
    expect(r.hook.seen.find((q) => q.url === '/ntfy')!.headers['x-actions']).toContain(encoded);
    expect(r.hook.seen.find((q) => q.url === '/slack')!.body).toContain(encoded);
  });

  it('a channel without a service posts a line in which nothing can mention', async () => {
    const r = (held.receivers = await startReceivers());
    const channel = {
      type: 'CHAT',
      name: 'plain',
      subscriptions: { checks: ['c1'] },
      groupWindowSeconds: 0,
      config: { url: `${r.hook.url}/plain` },
    };
    // Slack's explicit mention and Mattermost's plain one, in a name as they could be in an error.
    const checks = { c1: { name: 'Deploy <!channel> @channel <@U024BE7LH>' } };
    const svc = (held.svc = await startAlertService(alertConfig(r, { channels: [channel], checks })));
    await runner(svc)('c1', ['failed', 'failed']);
    await expect.poll(() => r.hook.seen.length, { timeout: 10_000 }).toBe(1);
    const { text } = JSON.parse(r.hook.seen[0]!.body) as { text: string };
    expect(text).toMatch(
      /^\[FAILING\] Deploy ‹!channel› @\u200bchannel ‹@\u200bU024BE7LH› is failing at Frankfurt/,
    );
    expect(text).not.toMatch(/[<>]|@(?!\u200b)/);
  });

  it("answers a channel test with the body sent and the receiver's answer, the token masked", async () => {
    const r = (held.receivers = await startReceivers());
    // Telegram's refusal, echoing where it was called: the token must not come back whole.
    r.hook.handle((req, res) =>
      json(res, 400, { ok: false, description: `Bad Request: chat not found at ${req.url}` }),
    );
    const svc = (held.svc = await startAlertService(alertConfig(r, { channels: [] })));
    const created = await post(svc, '/v1/alert-channels', chatChannel(r.hook.url, 'telegram'));
    expect(created.status).toBe(201);
    const tested = await post(svc, `/v1/alert-channels/${String(created.body['id'])}/test`);
    const n = tested.body as unknown as AlertNotification;
    // Telegram's own words on why (its `description`) are in the log, the token in them masked.
    expect(n).toMatchObject({ status: 'failed' });
    expect(n.lastError).toMatch(
      /^HTTP 400: the receiver refused the request: Bad Request: chat not found at \/bot.+\/sendMessage$/,
    );
    expect(JSON.parse(n.sentBody!)).toMatchObject({ chat_id: '-100123', parse_mode: 'MarkdownV2' });
    expect(n.answer).toEqual({ status: 400, body: expect.stringContaining(`/bot${MASK}/sendMessage`) });
    expect(JSON.stringify(n)).not.toContain(TOKEN);
    expect(r.hook.seen[0]!.url).toBe(`/bot${TOKEN}/sendMessage`);
  });

  it("waits out a 429's retry_after given in the body, as Telegram's flood control says it", async () => {
    const r = (held.receivers = await startReceivers());
    // Telegram's answer (https://core.telegram.org/bots/api#responseparameters): no Retry-After header.
    r.hook.handle((_req, res, n) =>
      n === 1
        ? json(res, 429, {
            ok: false,
            error_code: 429,
            description: 'Too Many Requests: retry after 1',
            parameters: { retry_after: 1 },
          })
        : json(res, 200, { ok: true, result: {} }),
    );
    const channels = [chatChannel(r.hook.url, 'telegram')];
    const svc = (held.svc = await startAlertService(alertConfig(r, { channels })));
    await runner(svc)('c1', ['failed', 'failed']);
    await expect.poll(async () => (await notifications(svc))[0]?.status, { timeout: 10_000 }).toBe('sent');
    expect((await notifications(svc))[0]!.attempts).toBe(2);
    // The test service's own backoff is 50 ms: only the answer's second makes this gap.
    const [first, second] = r.hook.seen;
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(950);
  });

  it('refuses a bad chat config with a message naming the field', async () => {
    const r = (held.receivers = await startReceivers());
    const svc = (held.svc = await startAlertService(alertConfig(r, { channels: [] })));
    const bad = async (config: Record<string, unknown>) => {
      const res = await post(svc, '/v1/alert-channels', { type: 'CHAT', name: 'x', config });
      expect(res.status).toBe(400);
      return res.body['details'];
    };
    expect(await bad({ url: 'https://api.telegram.org', service: 'telegram' })).toEqual(
      expect.arrayContaining([
        { path: 'config.botToken', message: 'required for telegram' },
        { path: 'config.chatId', message: 'required for telegram' },
      ]),
    );
    expect(
      await bad({
        url: `https://api.telegram.org/bot${TOKEN}`,
        service: 'telegram',
        botToken: TOKEN,
        chatId: '1',
      }),
    ).toEqual([
      expect.objectContaining({
        path: 'config.url',
        message: expect.stringContaining('without the bot token'),
      }),
    ]);
    expect(await bad({ url: 'https://x.test', service: 'icq' })).toEqual([
      expect.objectContaining({
        path: 'config.service',
        message: expect.stringContaining('must be one of slack'),
      }),
    ]);
    expect(await bad({ url: 'https://x.test', service: 'slack', botToken: TOKEN })).toEqual([
      { path: 'config.botToken', message: 'only a telegram channel takes it' },
    ]);
  });
});
