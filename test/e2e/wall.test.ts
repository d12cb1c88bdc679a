// `checkwall wall` in a real terminal: tmux runs bin/checkwall.js against the
// embedded demo, and against the project's own service for scope and outages.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startFixture, type Fixture } from '../helpers/fixture.js';
import { startTestService, TEST_ACCOUNT, TEST_KEY, type TestService } from '../helpers/service.js';
import { hasTmux, startTerminal, type Terminal } from '../helpers/tmux.js';

let term: Terminal | undefined;
afterEach(() => term?.kill());

const WALL = `${process.execPath} bin/checkwall.js wall`;
const CLOCK = /\d\d:\d\d:\d\d UTC/;
// eslint-disable-next-line no-control-regex -- looking for colour codes on purpose
const COLOUR = /\u001b\[(?:[0-9;]*;)?(?:3[0-9]|9[0-7]|38;5)[;m]/;
// eslint-disable-next-line no-control-regex -- looking for colour codes on purpose
const GREY = /\u001b\[(?:[0-9;]*;)?90[;m]/;
// eslint-disable-next-line no-control-regex -- looking for colour codes on purpose
const RED = /\u001b\[(?:[0-9;]*;)?31[;m]/;
const lines = (screen: string) => screen.replace(/\n+$/, '').split('\n');

describe.skipIf(!hasTmux)('wall in tmux, on the demo', () => {
  it('fills 200x60: big counts, clock, failing checks first with their locations, the rest by name', async () => {
    term = startTerminal(`${WALL} --demo --refresh 2`, { cols: 200, rows: 60 });
    // The whole frame, from the attention list to the line under the names: a capture
    // taken while a frame is being written (a loaded machine) may hold only its top.
    const screen = await term.waitFor(
      /Needs attention \(\d+\)[\s\S]*[●·▲✖‖∅◔] \S+.*\s[●·▲✖‖∅◔] \S[\s\S]*\d+ other checks/,
      30_000,
    );
    expect(screen).toMatch(CLOCK);
    expect(screen).toContain('FAILING');
    expect(screen).toContain('PASSING');
    expect(screen).toContain('█'); // the counts in block digits
    expect(screen).toMatch(/FAILING\s+(NEW )?\s*\S.*for .* at [A-Z]/);
    // The rest by name where they all fit (issue 36), each with its mark.
    expect(screen).toMatch(/[●·▲✖‖∅◔] \S+.*\s[●·▲✖‖∅◔] \S/);
    expect(screen).toMatch(/\d+ other checks/);
    expect(lines(screen).length).toBeLessThanOrEqual(60);
    expect(term.captureStyled()).toMatch(COLOUR);
  }, 60_000);

  it('fits 80x24, switches to the board on enter, and q gives the terminal back', async () => {
    term = startTerminal(`sh -c 'echo BEFORE-WALL; ${WALL} --demo --refresh 2; echo AFTER-WALL; sleep 30'`, {
      cols: 80,
      rows: 24,
    });
    let screen = await term.waitFor(/Needs attention \(\d+\)/, 30_000);
    expect(screen).toMatch(CLOCK);
    expect(screen).toContain('FAILING');
    expect(lines(screen).length).toBeLessThanOrEqual(24);
    for (const line of lines(screen)) expect(line.length).toBeLessThanOrEqual(80);
    term.sendKeys('?');
    await term.waitFor('switch to the interactive board');
    term.sendKeys('Escape');
    await term.waitFor(/Needs attention/);
    term.sendKeys('Enter');
    screen = await term.waitFor('AVAIL');
    expect(screen).toContain('CHECK');
    expect(screen).not.toContain('Needs attention');
    term.sendKeys('q');
    screen = await term.waitFor('AFTER-WALL');
    expect(screen).toContain('BEFORE-WALL');
    expect(screen).not.toMatch(CLOCK);
  }, 60_000);

  it('pages through what needs attention by itself, every --cycle seconds', async () => {
    // 80x16 leaves room for three rows of failing checks: the demo has more.
    term = startTerminal(`${WALL} --demo --refresh 2 --cycle 1`, { cols: 80, rows: 16 });
    const first = await term.waitFor(/page 1\/[2-9]/, 40_000);
    const pages = Number(/page 1\/(\d)/.exec(first)![1]);
    await term.waitFor(/page 2\//, 10_000);
    await term.waitFor(new RegExp(`page ${pages}/`), 10_000);
    await term.waitFor(/page 1\//, 10_000);
  }, 90_000);

  it('writes no colour at all with NO_COLOR', async () => {
    term = startTerminal(`${WALL} --demo --refresh 2`, { cols: 120, rows: 40, env: { NO_COLOR: '1' } });
    await term.waitFor(/Needs attention \(\d+\)/, 30_000);
    expect(term.captureStyled()).not.toMatch(COLOUR);
  }, 60_000);
});

describe.skipIf(!hasTmux)('wall in tmux, on the service', () => {
  let svc: TestService;
  let proxy: Fixture;
  let down = false;
  beforeAll(async () => {
    svc = await startTestService({ checks: 9 });
    for (const id of ['c1', 'c2']) {
      await svc.seed(id, ['failed', 'failed'], { location: 'eu-west' });
      await svc.seed(id, ['failed', 'failed'], { location: 'us-east' });
    }
    for (const id of ['c4', 'c5', 'c7']) {
      await svc.seed(id, ['success', 'success', 'success'], { location: 'eu-west' });
      await svc.seed(id, ['success', 'success', 'success'], { location: 'us-east' });
    }
    // In front of the service: passes requests on, or drops them while `down`.
    proxy = await startFixture((req, res) => {
      if (down) return void res.destroy();
      void fetch(svc.url + req.url, { headers: req.headers as Record<string, string> }).then(async (r) => {
        res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'application/json' });
        res.end(await r.text());
      });
    });
  });
  afterAll(async () => {
    await proxy.close();
    await svc.close();
  });
  const env = () => ({
    CHECKWALL_BASE_URL: proxy.url,
    CHECKWALL_API_KEY: TEST_KEY,
    CHECKWALL_ACCOUNT_ID: TEST_ACCOUNT,
    XDG_CONFIG_HOME: '/nonexistent-checkwall',
  });

  it('keeps the last data under a banner while the service is away, and recovers by itself', async () => {
    down = false;
    term = startTerminal(`${WALL} --refresh 2`, { cols: 120, rows: 40, env: env() });
    await term.waitFor('Needs attention (2)', 30_000);
    down = true;
    let screen = await term.waitFor('showing the last data', 30_000);
    expect(screen).toContain('Needs attention (2)');
    expect(screen).toContain('Check 0001');
    expect(screen).toMatch(/showing the last data: network ─ retrying in \d+s \(r: now\)/);
    // Stale: the age once, as STALE, and the counts and rows grey instead of red as if live.
    const top = lines(screen)[0]!;
    expect(top).toMatch(/STALE \d+s/);
    expect(top).not.toContain('updated');
    const styled = lines(term.captureStyled());
    expect(styled.find((l) => l.includes('█'))).toMatch(GREY);
    expect(styled.find((l) => l.includes('Check 0001'))).not.toMatch(RED);
    down = false;
    await expect.poll(() => term!.capture(), { timeout: 30_000 }).not.toContain('showing the last data');
    screen = term.capture();
    expect(screen).toContain('Needs attention (2)');
    expect(screen).toMatch(/updated <10s ago/);
  }, 90_000);

  it('shows one dashboard with --dashboard, and the board filter with --filter', async () => {
    down = false;
    // ops: c1 and the checks of group edge (c1, c4, c7).
    term = startTerminal(`${WALL} --refresh 2 --dashboard ops`, { cols: 120, rows: 40, env: env() });
    let screen = await term.waitFor('Needs attention (1)', 30_000);
    // Named once: "dashboard Operations", not also in the label.
    expect(lines(screen)[0]!.match(/Operations/g)).toHaveLength(1);
    expect(screen).toContain('Check 0001');
    expect(screen).not.toContain('Check 0002');
    expect(screen).toContain('2 other checks');
    term.kill();
    term = startTerminal(`${WALL} --refresh 2 --filter 'status:failing'`, {
      cols: 120,
      rows: 40,
      env: env(),
    });
    screen = await term.waitFor('Needs attention (2)', 30_000);
    expect(screen).toContain('0 other checks');
  }, 90_000);

  it('exits 2 with the reason for an unknown dashboard or a bad filter', async () => {
    down = false;
    const unknown = await runCli(['wall', '--dashboard', 'nope'], env());
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no dashboard "nope"');
    const filter = await runCli(['wall', '--filter', 'status:sideways'], env());
    expect(filter.code).toBe(2);
    expect(filter.stderr).toContain('sideways');
  });
});
