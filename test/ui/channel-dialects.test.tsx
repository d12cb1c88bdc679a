// The console's part of the chat and webhook dialects, at 120x40 and 80x24: the
// list shows a channel's dialect (`CHAT · telegram`); the form offers the
// dialects with only the fields each needs, its Method and dialects as choosers,
// and checks a template as the focus leaves it; T shows the body a test sent and
// the receiver's answer, masked, sanitised for the terminal and cut at 2 KB.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type MonitoringClient } from '../../src/api/client.js';
import { createConsoleStore, type ConsoleStore } from '../../src/store/create-store.js';
import { ACCOUNT_FEEDS } from '../../src/store/feeds/index.js';
import { dialectText } from '../../src/ui/views/channels/channel-columns.js';
import { alertConfig, startAlertService, startReceivers, type Receivers } from '../helpers/alerting.js';
import { mountConsole, type MountedConsole } from '../helpers/console.js';
import { json } from '../helpers/fixture.js';
import type { TestService } from '../helpers/service.js';

const TOKEN = '123456789:AAEhBOweik6ad9r_QXMENQjcrGbqCr4K-ra';
let svc: TestService;
let receivers: Receivers;
let client: MonitoringClient;
let store: ConsoleStore;
let mounted: MountedConsole;
// eslint-disable-next-line no-control-regex -- reading the text without colour codes
const plain = () => (mounted.view.lastFrame() ?? '').replace(/\u001b\[[0-9;]*m/g, '');
const keys = (...chunks: string[]) => chunks.forEach((c) => mounted.view.stdin.write(c));
const top = () => store.getState().stack.at(-1)?.name;
const RIGHT = '\u001b[C';

beforeAll(async () => {
  receivers = await startReceivers();
  // Telegram's refusal, echoing the token, with an escape sequence and 3 KB more.
  receivers.hook.handle((req, res) =>
    json(res, 400, { ok: false, description: `\u001b[31mchat not found at ${req.url} ${'x'.repeat(3000)}` }),
  );
  svc = await startAlertService(alertConfig(receivers, { channels: [] }));
  client = createClient({ baseUrl: svc.url, ...svc.credentials });
  await client.createAlertChannel({
    type: 'CHAT',
    name: 'Ops Telegram',
    config: { url: receivers.hook.url, service: 'telegram', botToken: TOKEN, chatId: '-100123' },
  });
  store = createConsoleStore({ refreshMs: 60_000, label: 'test', host: 'svc' });
  store.getState().setSize(120, 40);
  mounted = mountConsole(store, client, ACCOUNT_FEEDS);
});
afterAll(async () => {
  await mounted.close();
  await svc.close();
  await receivers.close();
});

describe('chat and webhook dialects in the console', () => {
  it('names the dialect in the list: CHAT · telegram, WEBHOOK · pagerduty', async () => {
    keys(':', 'channels', '\r');
    await expect.poll(plain, { timeout: 5000 }).toContain('CHAT · telegram');
    expect(plain()).not.toContain(TOKEN);
    expect(dialectText({ type: 'WEBHOOK', config: { format: 'pagerduty' } })).toBe('WEBHOOK · pagerduty');
    expect(dialectText({ type: 'WEBHOOK', config: {} })).toBe('WEBHOOK');
    expect(dialectText({ type: 'CHAT', config: { service: '\u001b[2Jslack' } })).toBe('CHAT · slack');
  });

  it('T shows the body sent and the answer, masked, sanitised and cut at 2 KB', async () => {
    keys('T');
    await expect.poll(plain, { timeout: 5000 }).toContain('Answer  HTTP 400');
    const frame = plain();
    expect(frame).toMatch(/Sent\s+\{"chat_id":"-100123","text":/);
    expect(frame).toContain('/bot•••/sendMessage');
    expect(frame).not.toContain(TOKEN);
    expect(mounted.view.lastFrame()).not.toContain('\u001b[31mchat');
    const test = store.getState().channelTests[1];
    expect(test?.state === 'done' && test.outcome.answer?.body.length).toBeGreaterThan(2000);
    expect(frame).toContain('…');
  });

  it('asks a telegram channel for its bot token and chat id only, through the service chooser', async () => {
    keys('n');
    await expect.poll(plain).toContain('Choose a type');
    keys('j', '\r', 'Tg', '\t');
    await expect.poll(plain).toMatch(/Service\s+‹ plain \(text and channel\) ›/);
    keys(...Array<string>(6).fill(RIGHT));
    await expect.poll(plain).toMatch(/Service\s+‹ telegram ›/);
    expect(plain()).toContain('Bot token');
    expect(plain()).toContain('Chat id');
    expect(plain()).not.toContain('Webhook URL');
    keys('\t', TOKEN, '\t', '@opsalerts', '\r');
    await expect.poll(top).toBe('channels');
    const listed = await client.alertChannels({ limit: 100 });
    expect(listed.data.at(-1)).toMatchObject({
      type: 'CHAT',
      config: { service: 'telegram', url: 'https://api.telegram.org', chatId: '@opsalerts' },
    });
  });

  it('offers the webhook formats with their own fields; a template is checked as the focus leaves it', async () => {
    keys('n');
    await expect.poll(plain).toContain('Choose a type');
    keys('j', 'j', '\r', 'Pager', '\t');
    await expect.poll(plain).toMatch(/Format\s+‹ checkwall ›/);
    expect(plain()).toMatch(/Method\s+‹ POST ›/);
    keys(RIGHT);
    await expect.poll(plain).toMatch(/Format\s+‹ pagerduty ›/);
    expect(plain()).toContain('https://events.pagerduty.com/v2/enqueue');
    expect(plain()).toContain('Routing key');
    expect(plain()).not.toContain('Method');
    keys(RIGHT, RIGHT, RIGHT);
    await expect.poll(plain).toMatch(/Format\s+‹ template ›/);
    expect(plain()).toMatch(/Content type\s+‹ application\/json ›/);
    keys('\t', 'https://hooks.example.com/t', '\t', ' ');
    await expect.poll(plain).toMatch(/Method\s+‹ PUT ›/);
    keys('\t', '\t', '{"text": "{{check.name}"}', '\t');
    await expect.poll(plain).toMatch(/Template .*✖ not a mustache template/);
    keys('\u001b');
    await expect.poll(plain).toContain('Discard what you typed?');
    keys('y');
    await expect.poll(top).toBe('channels');
  });

  it('fits the form and the list at 80x24', async () => {
    store.getState().setSize(80, 24);
    await expect.poll(plain).toContain('CHAT · telegram');
    keys('n');
    await expect.poll(plain).toContain('Choose a type');
    keys('j', 'j', '\r', '\t', RIGHT);
    await expect.poll(plain).toMatch(/Format\s+‹ pagerduty ›/);
    const lines = plain().split('\n');
    expect(lines.length).toBeLessThanOrEqual(24);
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(80);
    expect(plain()).toContain('Routing key');
    keys('\u001b');
    await expect.poll(plain).toContain('Discard what you typed?');
    keys('y');
    await expect.poll(top).toBe('channels');
  });
});
