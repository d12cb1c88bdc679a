// The alert channel views with a real store, fed by the poller from the real service.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type MonitoringClient } from '../../src/api/client.js';
import { createConsoleStore, type ConsoleStore } from '../../src/store/create-store.js';
import { ACCOUNT_FEEDS } from '../../src/store/feeds/index.js';
import { mountConsole, type MountedConsole } from '../helpers/console.js';
import { startTestService, type TestService } from '../helpers/service.js';

let svc: TestService;
let client: MonitoringClient;
let store: ConsoleStore;
let view: MountedConsole['view'];
let mounted: MountedConsole;
// eslint-disable-next-line no-control-regex -- reading the text without colour codes
const plain = () => (view.lastFrame() ?? '').replace(/\u001b\[[0-9;]*m/g, '');
const top = () => store.getState().stack.at(-1)?.name;
/** The list's selected row, as drawn. */
const selectedLine = () =>
  plain()
    .split('\n')
    .find((l) => l.startsWith('›')) ?? '';
const keys = (...chunks: string[]) => chunks.forEach((c) => view.stdin.write(c));

beforeAll(async () => {
  svc = await startTestService({ checks: 3 });
  client = createClient({ baseUrl: svc.url, ...svc.credentials });
  await client.createAlertChannel({
    type: 'WEBHOOK',
    name: 'Incident bot',
    config: {
      url: 'https://bot.example.com/incidents?key=abc123',
      method: 'POST',
      headers: [{ key: 'Authorization', value: 'Bearer s3cr3t' }],
    },
  });
  await client.createAlertChannel({
    type: 'SMS',
    name: 'Pager \u001b[31mred\u001b[0m',
    config: { number: '+4915112345678', name: 'On call' },
    groupWindowSeconds: 120,
  });
  store = createConsoleStore({ refreshMs: 60_000, label: 'test', host: 'svc' });
  // Wide enough for every column, the delivery columns included, with the targets whole.
  store.getState().setSize(180, 30);
  mounted = mountConsole(store, client, ACCOUNT_FEEDS);
  view = mounted.view;
});
afterAll(async () => {
  await mounted.close();
  await svc.close();
});

describe('alert channels in the console', () => {
  it('lists channels from :channels with their secrets masked, and sanitised names', async () => {
    keys(':', 'channels', '\r');
    await expect.poll(plain).toContain('Incident bot');
    const frame = plain();
    expect(frame).toContain('POST https://bot.example.com/••• (Authorization: •••)');
    expect(frame).toContain('+•••78 (On call)');
    expect(frame).not.toMatch(/s3cr3t|abc123|15112345678/);
    expect(frame).toContain('Pager red');
    expect(view.lastFrame()).not.toContain('\u001b[31mred');
    // The grouping window that applies: a WEBHOOK's default (none), the SMS's own.
    const row = (name: string) => frame.split('\n').find((l) => l.includes(name)) ?? '';
    expect(frame).toMatch(/ GROUP /);
    expect(row('Incident bot')).toMatch(/ off /);
    expect(row('Pager red')).toMatch(/ 2m /);
  });

  it('at 80x24, says under the list how the selected channel delivers, what it serves and its window', async () => {
    await expect.poll(plain).toContain('Incident bot');
    store.getState().setSize(80, 24);
    try {
      await expect.poll(plain).toMatch(/^ {2}last delivery none yet {2}none failed in 24 h$/m);
      const frame = plain();
      expect(frame).not.toMatch(/LAST DELIVERY|SUBSCRIBED| GROUP /);
      expect(selectedLine()).toContain('Incident bot');
      expect(frame).toMatch(/^Incident bot \(#\d+\) {2}WEBHOOK {2}grouping off$/m);
      expect(frame).toMatch(/^ {2}serves nothing$/m);
      expect(frame.split('\n').length).toBeLessThanOrEqual(24);
      keys('j');
      await expect.poll(plain).toMatch(/^Pager red \(#\d+\) {2}SMS {2}grouping 2m$/m);
      // At 60 columns the title is cut, not wrapped onto the table's first line.
      store.getState().setSize(60, 12);
      await expect.poll(() => plain().split('\n')[1]).toMatch(/^ +ID TYPE/);
      expect(plain().split('\n').length).toBeLessThanOrEqual(12);
    } finally {
      keys('k');
      store.getState().setSize(180, 30);
    }
    await expect.poll(selectedLine).toContain('Incident bot');
    await expect.poll(plain).toContain('LAST DELIVERY');
    expect(plain()).not.toContain('last delivery none yet');
  });

  it('reveals the selected channel with v until the selection moves', async () => {
    keys('v');
    await expect
      .poll(plain)
      .toContain('POST https://bot.example.com/incidents?key=abc123 (Authorization: Bea');
    expect(plain()).toContain('revealed until you move or leave');
    expect(plain()).not.toContain('15112345678');
    keys('j');
    await expect.poll(plain).not.toContain('abc123');
    keys('v');
    await expect.poll(plain).toContain('+4915112345678');
    keys('n');
    await expect.poll(top).toBe('channel-form');
    expect(store.getState().revealedChannelId).toBeNull();
  });

  it('creates a WEBHOOK from the form, validating beside each field as it is typed', async () => {
    await expect.poll(plain).toContain('Choose a type');
    keys('j', 'j', '\r');
    await expect.poll(plain).toContain('New alert channel: WEBHOOK');
    keys('Deploy hook', '\t', '\t', 'htp://x');
    await expect.poll(plain).toMatch(/URL\s+htp:\/\/x\s+✖ must be an http:\/\/ or https:\/\/ address/);
    // The method is a chooser at POST: typed text does not reach it.
    keys('\u007f'.repeat(7), 'https://hooks.example.com/deploy', '\t', 'post', '\u000e', 'X-Key', '\t', 'k1');
    await expect.poll(plain).toMatch(/Header 1 value\s+k1/);
    expect(plain()).not.toContain('must be');
    keys('\r');
    await expect.poll(top).toBe('channels');
    // The name shows at once above the list, with the signing secret: the row comes with the reload.
    await expect.poll(selectedLine).toContain('Deploy hook');
    const selected = selectedLine();
    expect(selected).toContain('POST https://hooks.example.com/••• (X-Key: •••)');
  });

  it('asks before discarding typed input on esc, and keeps editing on any other key', async () => {
    keys('n');
    await expect.poll(plain).toContain('Choose a type');
    keys('\r', 'Mail');
    await expect.poll(plain).toMatch(/Channel name\s+Mail/);
    keys('\u001b');
    await expect.poll(plain).toContain('Discard what you typed?');
    keys('s');
    await expect.poll(plain).toMatch(/Channel name\s+Mails/);
    expect(plain()).not.toContain('Discard what you typed?');
    keys('\u001b');
    await expect.poll(plain).toContain('Discard what you typed?');
    keys('\u001b');
    await expect.poll(top).toBe('channels');
    keys('n');
    await expect.poll(plain).toContain('Choose a type');
    keys('\u001b');
    await expect.poll(top).toBe('channels');
  });

  it('takes y and n at "Discard what you typed?" as answers, not as text (issue 36)', async () => {
    keys('n');
    await expect.poll(plain).toContain('Choose a type');
    keys('\r', 'Mail');
    await expect.poll(plain).toMatch(/Channel name\s+Mail/);
    keys('\u001b');
    await expect.poll(plain).toContain('Discard what you typed?');
    keys('n');
    await expect.poll(plain).not.toContain('Discard what you typed?');
    expect(plain()).toMatch(/Channel name\s+Mail(\s|$)/m);
    expect(plain()).not.toMatch(/Channel name\s+Mailn/);
    keys('\u001b');
    await expect.poll(plain).toContain('Discard what you typed?');
    keys('y');
    await expect.poll(top).toBe('channels');
    keys('n');
    await expect.poll(plain).toContain('Choose a type');
    expect(plain()).not.toContain('Mail');
    keys('\u001b');
    await expect.poll(top).toBe('channels');
  });

  it('subscribes a new channel to checks and groups chosen from lists, searched with / (issue 36)', async () => {
    keys('n');
    await expect.poll(plain).toContain('Choose a type');
    keys('\r', 'Ops mail', '\t', 'ops@example.com', '\t');
    // The grouping window, blank: its hint names the type's default.
    await expect.poll(plain).toMatch(/Grouping \(optional\)\s+seconds or minutes .*; blank: 30s/);
    keys('1m', '\t');
    await expect.poll(plain).toMatch(/Subscribed checks\s+none: never pages/);
    keys('/');
    await expect.poll(plain).toContain('Subscribe to checks');
    expect(plain()).toContain('[ ] Check 0003 (c3)');
    keys('/', '0002', '\r');
    await expect.poll(plain).not.toContain('Check 0003');
    keys(' ');
    await expect.poll(plain).toContain('[x] Check 0002 (c2)');
    keys('\r');
    await expect.poll(plain).toMatch(/Subscribed checks\s+Check 0002 \(c2\)/);
    keys('\t', ' ');
    await expect.poll(plain).toContain('Subscribe to groups');
    keys('j', ' ', '\r');
    await expect.poll(plain).toMatch(/Subscribed groups\s+Edge \(edge\)/);
    keys('\r');
    await expect.poll(top).toBe('channels');
    await expect.poll(selectedLine).toContain('Ops mail');
    expect(selectedLine()).toContain('group:edge, c2');
    expect(selectedLine()).toMatch(/ 1m /);
    expect(selectedLine()).not.toContain('nothing');
  });

  it('changes the selected channel’s grouping window with w, keeping bad input with why', async () => {
    expect(selectedLine()).toContain('Ops mail');
    keys('w');
    await expect.poll(plain).toMatch(/Grouping window of Ops mail, now 1m: 1m +90, 2m, off, or blank: 30s/);
    // The first key typed replaces the channel's own window.
    keys('soon', '\r');
    await expect.poll(plain).toMatch(/now 1m: soon .*\n *seconds \(90\) or minutes \(2m\), at most 60m/);
    expect(top()).toBe('channels');
    keys('\u007f'.repeat(4), '45', '\r');
    await expect.poll(plain).toContain('Ops mail: grouping window 45s, was 1m');
    await expect.poll(selectedLine).toMatch(/ 45s /);
    // The outcome stays until the next key; esc in the prompt leaves the window as it is.
    keys('w', '9', '\u001b');
    await expect.poll(plain).not.toContain('Grouping window of');
    expect(plain()).not.toContain('was 1m');
    expect(selectedLine()).toMatch(/ 45s /);
    expect(top()).toBe('channels');
  });

  it('changes what the selected channel serves with s, from the same lists as the form', async () => {
    expect(selectedLine()).toContain('Ops mail');
    keys('s');
    await expect.poll(plain).toMatch(/What Ops mail serves \(#\d+\)/);
    expect(top()).toBe('channel-form');
    expect(plain()).toMatch(/Subscribed checks\s+Check 0002 \(c2\)/);
    expect(plain()).toMatch(/Subscribed groups\s+Edge \(edge\)/);
    keys('/');
    await expect.poll(plain).toContain('Subscribe to checks');
    keys('/', '0003', '\r', ' ', '\r');
    await expect.poll(plain).toMatch(/Subscribed checks\s+Check 0002 \(c2\), Check 0003 \(c3\)/);
    keys('\r');
    await expect.poll(top).toBe('channels');
    await expect.poll(plain).toContain('Ops mail serves 2 checks and 1 group now');
    await expect.poll(selectedLine).toContain('group:edge, c2, c3');
  });
});
