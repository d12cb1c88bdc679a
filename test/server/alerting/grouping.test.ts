// docs/alerts.md, "Grouping per channel", through the real service on the fake clock: five
// checks failing within a chat channel's window reach it as one message naming all five (a
// WEBHOOK channel beside it gets five), each alert still its own; the recoveries likewise; and
// a restart between the writing and the group's time still sends the one message.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
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
  type Receivers,
} from '../../helpers/alerting.js';
import { createFakeClock } from '../../helpers/fake-clock.js';

const held = closedAfterEach();
const IDS = ['c1', 'c2', 'c3', 'c4', 'c5'];
const extra = (id: string) => ({
  id,
  name: `Added ${id}`,
  type: 'api',
  target: 'http://127.0.0.1:9/',
  locations: ['eu-west'],
});

const groupedConfig = (r: Receivers) =>
  alertConfig(r, {
    extraChecks: [extra('c4'), extra('c5')],
    channels: [
      { type: 'CHAT', name: 'chat', subscriptions: { checks: IDS }, config: { url: `${r.hook.url}/chat` } },
      {
        type: 'WEBHOOK',
        name: 'hook',
        subscriptions: { checks: IDS },
        config: { url: `${r.hook.url}/hook`, method: 'POST' },
      },
    ],
  });

const chatTexts = (r: Receivers) =>
  r.hook.seen
    .filter((x) => x.url.startsWith('/chat'))
    .map((x) => (JSON.parse(x.body) as { text: string }).text);
const hookCount = (r: Receivers, event: string) =>
  hookEvents(r).filter((e, i) => r.hook.seen[i]!.url.startsWith('/hook') && e.event === event).length;
const NAMES = /Check 0001, Check 0002, Check 0003, Added c4, Added c5/;

describe('grouping per channel', () => {
  it('sends five failures within the window as one chat message, five webhooks, and the recoveries likewise', async () => {
    const r = (held.receivers = await startReceivers());
    // At the real time: the results it seeds are as recent as the service's own.
    const clock = createFakeClock(Date.now());
    const s = (held.svc = await startAlertService(groupedConfig(r), clock));
    const run = runner(s, clock);
    for (const id of IDS) await run(id, ['failed', 'failed']);
    // The WEBHOOK channel (window 0) has each page at once; the chat waits for its group.
    await expect.poll(() => hookCount(r, 'failure')).toBe(5);
    expect(chatTexts(r)).toEqual([]);
    await clock.advance(31_000);
    await expect.poll(() => chatTexts(r).length).toBe(1);
    expect(chatTexts(r)[0]).toMatch(/^\[FAILING\] 5 checks failing: /);
    expect(chatTexts(r)[0]).toMatch(NAMES);
    // Each alert is its own: five, and each row of the group records its own delivery.
    const alerts = await Promise.all(IDS.map(async (id) => (await statusOf(s, id)).currentAlert?.id));
    expect(new Set(alerts).size).toBe(5);
    const chatLog = (await notifications(s)).filter((n) => n.channel.name === 'chat');
    expect(chatLog.map((n) => [n.event, n.status])).toEqual(IDS.map(() => ['failure', 'sent']));

    for (const id of IDS) await run(id, ['success', 'success', 'success']);
    await expect.poll(() => hookCount(r, 'recovery')).toBe(5);
    await clock.advance(31_000);
    await expect.poll(() => chatTexts(r).length).toBe(2);
    expect(chatTexts(r)[1]).toMatch(/^\[RECOVERED\] 5 checks recovered: /);
    expect(chatTexts(r)[1]).toMatch(NAMES);
    await clock.advance(31_000);
    expect(chatTexts(r)).toHaveLength(2);
  });

  it('still sends the one message after a restart between the writing and the group’s time', async () => {
    const r = (held.receivers = await startReceivers());
    const clock = createFakeClock(Date.now());
    const dbPath = join(mkdtempSync(join(tmpdir(), 'checkwall-group-')), 'checkwall.db');
    let s = (held.svc = await startAlertService(groupedConfig(r), clock, { dbPath }));
    const run = runner(s, clock);
    for (const id of IDS) await run(id, ['failed', 'failed']);
    const pendingChat = async () =>
      (await notifications(held.svc!)).filter((n) => n.channel.name === 'chat' && n.status === 'pending');
    await expect.poll(async () => (await pendingChat()).length).toBe(5);
    await s.close();
    held.svc = undefined;
    await clock.advance(31_000);
    s = held.svc = await startAlertService(groupedConfig(r), clock, { dbPath });
    await clock.advance(2_000);
    await expect.poll(() => chatTexts(r).length).toBe(1);
    expect(chatTexts(r)[0]).toMatch(NAMES);
    await clock.advance(5_000);
    expect(chatTexts(r)).toHaveLength(1);
    expect(await pendingChat()).toEqual([]);
  });

  it('takes a channel’s window in the API’s create body and shows it; refuses one out of range', async () => {
    const r = (held.receivers = await startReceivers());
    const s = (held.svc = await startAlertService(groupedConfig(r)));
    const body = { type: 'CHAT', name: 'pager chat', config: { url: `${r.hook.url}/c` } };
    const made = await post(s, '/v1/alert-channels', { ...body, groupWindowSeconds: 10 });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ name: 'pager chat', groupWindowSeconds: 10 });
    expect((await post(s, '/v1/alert-channels', { ...body, groupWindowSeconds: 4000 })).status).toBe(400);
  });
});
