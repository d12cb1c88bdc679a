// Alerts in a real terminal: tmux runs bin/checkwall.js on a service whose
// webhook channel delivers to a receiver on loopback. The on-call engineer
// opens the failing check, sees its page delivered, acknowledges the alert
// and finds the delivery on :channels.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  alertConfig,
  runner,
  startAlertService,
  startReceivers,
  statusOf,
  type Receivers,
} from '../helpers/alerting.js';
import { TEST_ACCOUNT, TEST_KEY, type TestService } from '../helpers/service.js';
import { hasTmux, startTerminal, type Terminal } from '../helpers/tmux.js';

let term: Terminal | undefined;
afterEach(() => term?.kill());

describe.skipIf(!hasTmux)('alerts in tmux', () => {
  let svc: TestService;
  let receivers: Receivers;
  beforeAll(async () => {
    receivers = await startReceivers();
    svc = await startAlertService(alertConfig(receivers));
    await runner(svc)('c1', ['failed', 'failed']);
  });
  afterAll(async () => {
    await svc.close();
    await receivers.close();
  });

  it('acknowledges the failing check’s alert and shows its delivery', async () => {
    await expect.poll(() => receivers.hook.seen.length).toBe(1);
    term = startTerminal(`${process.execPath} bin/checkwall.js --refresh 1`, {
      cols: 120,
      rows: 36,
      env: {
        CHECKWALL_BASE_URL: svc.url,
        CHECKWALL_API_KEY: TEST_KEY,
        CHECKWALL_ACCOUNT_ID: TEST_ACCOUNT,
        XDG_CONFIG_HOME: '/nonexistent-checkwall',
      },
    });
    await term.waitFor('Check 0001', 30_000);
    term.sendKeys('f'); // the next failing check: the only one
    term.sendKeys('Enter');
    let screen = await term.waitFor(/Alert open \S+, not acknowledged \(a acknowledges\)/);
    screen = await term.waitFor(/failure\s+Incident bot \(WEBHOOK\)\s+sent\s+1 attempt/);
    term.sendKeys('a');
    await term.waitFor('Acknowledge the alert of Check 0001? Its reminders stop.');
    term.sendKeys('y');
    await term.waitFor(/alert acknowledged at \d\d:\d\d:\d\d: its reminders stop/);
    screen = await term.waitFor(/Alert open \S+, acknowledged/);
    expect(screen).toContain('Check 0001');
    expect((await statusOf(svc, 'c1')).alerts).toMatchObject({ active: 0, acknowledged: 1 });

    term.sendKeys('Escape');
    term.type(':channels');
    term.sendKeys('Enter');
    await term.waitFor('LAST DELIVERY');
    // The acknowledgement itself went to the webhook (docs/alerts.md, "The acknowledgement event"):
    // its delivery may still be pending as the view opens, and is sent by a refresh after.
    screen = await term.waitFor(/Incident bot.*c1\s+acknowledgement sent/, 15_000);
    const row = screen.split('\n').find((l) => l.includes('Incident bot')) ?? '';
    expect(row).toMatch(/c1\s+acknowledgement sent/);
    term.sendKeys('q');
    await expect.poll(() => term!.exited(), { timeout: 10_000 }).toBe(true);
  }, 90_000);
});
