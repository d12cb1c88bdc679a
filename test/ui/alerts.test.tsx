// Alerts in the console, with a real store fed by the poller from the real
// service, whose channels deliver to receivers on loopback: the check's alert
// history and acknowledging it, a channel's test in place, and the board and
// wall marking a failing check whose page never went out.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClient } from '../../src/api/client.js';
import { createConsoleStore, type ConsoleStore } from '../../src/store/create-store.js';
import { ACCOUNT_FEEDS } from '../../src/store/feeds/index.js';
import { json } from '../helpers/fixture.js';
import {
  alertConfig,
  hookChannel,
  runner,
  startAlertService,
  startReceivers,
  statusOf,
  type Receivers,
} from '../helpers/alerting.js';
import { mountConsole, type MountedConsole } from '../helpers/console.js';
import type { TestService } from '../helpers/service.js';

let svc: TestService;
let receivers: Receivers;
let store: ConsoleStore;
let view: MountedConsole['view'];
let mounted: MountedConsole;
// eslint-disable-next-line no-control-regex -- reading the text without colour codes
const plain = () => (view.lastFrame() ?? '').replace(/\u001b\[[0-9;]*m/g, '');
const keys = (...chunks: string[]) => chunks.forEach((c) => view.stdin.write(c));

beforeAll(async () => {
  receivers = await startReceivers();
  // /refuses answers 400: c2's page to it never goes out.
  receivers.hook.handle((req, res) => json(res, req.url.startsWith('/refuses') ? 400 : 200, {}));
  const refusing = { ...hookChannel(receivers, { checks: ['c2'] }), name: 'Refusing hook' };
  refusing.config = { ...refusing.config, url: `${receivers.hook.url}/refuses` };
  svc = await startAlertService(
    alertConfig(receivers, { channels: [hookChannel(receivers, { checks: ['c1'] }), refusing] }),
  );
  const run = runner(svc);
  await run('c1', ['failed', 'failed']);
  await run('c2', ['failed', 'failed']);
  await vi.waitFor(async () => {
    if ((await statusOf(svc, 'c2')).currentAlert?.undelivered !== 1)
      throw new Error('c2 not undelivered yet');
  });
  const client = createClient({ baseUrl: svc.url, ...svc.credentials });
  store = createConsoleStore({ refreshMs: 500, label: 'test', host: 'svc' });
  store.getState().setSize(140, 40);
  mounted = mountConsole(store, client, ACCOUNT_FEEDS);
  view = mounted.view;
});
afterAll(async () => {
  await mounted.close();
  await svc.close();
  await receivers.close();
});

describe('alerts in the console', () => {
  it('marks on the board a failing check whose page could not be delivered', async () => {
    await expect.poll(plain).toContain('Check 0002');
    const row = (name: string) =>
      plain()
        .split('\n')
        .find((l) => l.includes(name)) ?? '';
    expect(row('Check 0002')).toMatch(/FAILING\s+✉ Check 0002/);
    expect(row('Check 0001')).toMatch(/FAILING\s+! Check 0001/);
  });

  it('shows the check’s alert and its deliveries, and acknowledges it with a, after asking', async () => {
    store.getState().openCheck('c1', false);
    await expect.poll(plain).toMatch(/Alert open \S+, not acknowledged \(a acknowledges\)/);
    await expect.poll(plain).toMatch(/failure\s+Incident bot \(WEBHOOK\)\s+sent\s+1 attempt/);
    keys('a');
    await expect.poll(plain).toContain('Acknowledge the alert of Check 0001? Its reminders stop.');
    keys('n');
    await expect.poll(plain).not.toContain('Acknowledge the alert of');
    expect(store.getState().checks['c1']?.currentAlert?.acknowledgedAt).toBeNull();
    keys('a');
    await expect.poll(plain).toContain('Acknowledge the alert of Check 0001?');
    keys('y');
    await expect.poll(plain).toMatch(/alert acknowledged at \d\d:\d\d:\d\d: its reminders stop/);
    await expect.poll(plain, { timeout: 5_000 }).toMatch(/Alert open \S+, acknowledged/);
    expect((await statusOf(svc, 'c1')).alerts).toMatchObject({ active: 0, acknowledged: 1 });
    keys('a');
    await expect.poll(plain).toMatch(/already acknowledged at \d\d:\d\d:\d\d/);
  });

  it('shows the undelivered page on the check', async () => {
    keys('\u001b');
    await expect.poll(() => store.getState().stack.at(-1)?.name).toBe('board');
    store.getState().openCheck('c2', false);
    await expect.poll(plain).toContain('✉ 1 page not delivered');
    await expect
      .poll(plain)
      .toMatch(/failure\s+Refusing hook \(WEBHOOK\)\s+failed\s+1 attempt\s+HTTP 400: the receiver refused/);
  });

  it('lists channels with subscriptions, last delivery and failures in 24 h, and tests one in place with T', async () => {
    keys('\u001b');
    keys(':channels\r');
    await expect.poll(plain).toContain('LAST DELIVERY');
    const row = (name: string) =>
      plain()
        .split('\n')
        .find((l) => l.includes(name)) ?? '';
    expect(row('Refusing hook')).toMatch(/c2\s+failure failed \S+\s+1/);
    // Its last delivery is the acknowledgement of c1's alert, made in an earlier test.
    expect(row('Incident bot')).toMatch(/c1\s+acknowledgement sent \S+\s+0/);
    keys('T');
    await expect.poll(() => row('Incident bot')).toContain('test sent');
    await expect.poll(plain).toMatch(/^test sent$/m);
    keys('j', 'T');
    await expect.poll(() => row('Refusing hook')).toContain('test failed');
    await expect.poll(plain).toMatch(/^test failed: HTTP 400: the receiver refused the request$/m);
    // Its failures in 24 h: the page and the test.
    await expect.poll(() => row('Refusing hook')).toMatch(/test failed.*…\s+2(\s|$)/);
  });

  it('marks the check on the wall', async () => {
    keys(':wall\r');
    await expect.poll(plain).toMatch(/Check 0002.*✉ PAGE NOT DELIVERED/);
    expect(plain()).not.toMatch(/Check 0001.*PAGE NOT DELIVERED/);
  });
});
