// Alert channels and a public dashboard in a real terminal: tmux runs bin/checkwall.js.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.js';
import { hasTmux, startTerminal, type Terminal } from '../helpers/tmux.js';

let term: Terminal | undefined;
afterEach(() => term?.kill());

describe.skipIf(!hasTmux)('channels and public dashboards in tmux', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ checks: 6 });
    await svc.seed('c2', ['failed', 'failed']);
  });
  afterAll(() => svc.close());

  it('creates an alert channel from the demo console: :channels, n, a form, enter, listed; w sets its window', async () => {
    term = startTerminal(`${process.execPath} bin/checkwall.js demo --refresh 2`, { cols: 120, rows: 32 });
    await term.waitFor('Orders queue', 30_000);
    term.type(':channels');
    term.sendKeys('Enter');
    let screen = await term.waitFor('Incident bot');
    // The demo's chat hook is its own receiver on loopback, masked past the host.
    expect(screen).toMatch(/http:\/\/127\.0\.0\.1:\d+\/•••/);
    expect(screen).not.toContain('hooks/chat');
    term.sendKeys('n');
    await term.waitFor('Choose a type');
    term.sendKeys('Enter');
    await term.waitFor('New alert channel: EMAIL');
    term.type('Night shift');
    term.sendKeys('Tab');
    term.type('night@example');
    await term.waitFor('must be a valid e-mail address');
    term.type('.com');
    await expect.poll(() => term!.capture()).not.toContain('must be a valid e-mail address');
    term.sendKeys('Enter');
    screen = await term.waitFor(/Alert channels \(6\)/);
    const selected = screen.split('\n').find((l) => l.startsWith('›')) ?? '';
    expect(selected).toMatch(/6 EMAIL\s+Night shift\s+night@example\.com/);
    // w: its grouping window, from the type's default (blank) to 2 minutes.
    term.sendKeys('w');
    await term.waitFor('Grouping window of Night shift, now 30s:');
    term.type('2m');
    term.sendKeys('Enter');
    await term.waitFor('Night shift: grouping window 2m, was 30s');
    term.sendKeys('q');
    await expect.poll(() => term!.exited(), { timeout: 10_000 }).toBe(true);
  }, 90_000);

  it('opens a public dashboard with --public, without credentials', async () => {
    term = startTerminal(
      `${process.execPath} bin/checkwall.js --public ${svc.url}/v1/public/dashboards/status --refresh 2`,
      { cols: 100, rows: 24, env: { CHECKWALL_API_KEY: '', CHECKWALL_ACCOUNT_ID: '' } },
    );
    const screen = await term.waitFor('Check 0002', 30_000);
    expect(screen).toContain('Checkwall ─ public ─ Public status');
    expect(screen).toMatch(/✖ 1 failing/);
    expect(screen).not.toContain('Check 0001');
    term.type(':channels');
    term.sendKeys('Enter');
    await term.waitFor('A public dashboard cannot show alert channels.');
    term.sendKeys('q');
    await expect.poll(() => term!.exited(), { timeout: 10_000 }).toBe(true);
  }, 60_000);
});
