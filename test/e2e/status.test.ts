// `checkwall status` on a terminal: the table takes the terminal's width and
// colours the status, unless NO_COLOR says otherwise.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, TEST_ACCOUNT, TEST_KEY, type TestService } from '../helpers/service.js';
import { hasTmux, startTerminal, type Terminal } from '../helpers/tmux.js';

let term: Terminal | undefined;
afterEach(() => term?.kill());
// eslint-disable-next-line no-control-regex -- looking for colour codes on purpose
const COLOUR = /\u001b\[(?:[0-9;]*;)?(?:3[0-9]|9[0-7])[;m]/;

describe.skipIf(!hasTmux)('checkwall status on a terminal', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ checks: 5 });
    await svc.seed('c1', ['failed', 'failed'], { location: 'eu-west' });
    await svc.seed('c1', ['failed', 'failed'], { location: 'us-east' });
  });
  afterAll(() => svc.close());
  const run = (env: Record<string, string> = {}, cols = 120) =>
    startTerminal(`sh -c '${process.execPath} bin/checkwall.js status; echo EXIT=$?; sleep 30'`, {
      cols,
      rows: 20,
      env: {
        CHECKWALL_BASE_URL: svc.url,
        CHECKWALL_API_KEY: TEST_KEY,
        CHECKWALL_ACCOUNT_ID: TEST_ACCOUNT,
        XDG_CONFIG_HOME: '/nonexistent-checkwall',
        ...env,
      },
    });

  it('fills the width of the terminal and colours the status', async () => {
    term = run();
    const screen = await term.waitFor('EXIT=1');
    const table = screen.split('\n').filter((l) => /^(STATUS|failing|passing|unknown|degraded)/.test(l));
    expect(table).toHaveLength(6);
    expect(table[0]).toMatch(/^STATUS\s+NAME\s+.*FAILING LOCATIONS$/);
    for (const line of table) expect(line.length).toBeLessThanOrEqual(120);
    expect(term.captureStyled()).toMatch(COLOUR);
  });

  it('fits a narrow terminal by dropping the least important columns, not at 80', async () => {
    // Names are as wide as they need (issue 36): at 64 every column fits, at 48 the locations go.
    term = run({}, 48);
    const screen = await term.waitFor('EXIT=1');
    const table = screen.split('\n').filter((l) => /^(STATUS|failing|passing|unknown|degraded)/.test(l));
    expect(table[0]).toMatch(/^STATUS\s+NAME/);
    expect(table[0]).not.toContain('FAILING LOCATIONS');
    for (const line of table) expect(line.length).toBeLessThanOrEqual(48);
  });

  it('writes no colour with NO_COLOR', async () => {
    term = run({ NO_COLOR: '1' });
    await term.waitFor('EXIT=1');
    expect(term.captureStyled()).not.toMatch(COLOUR);
  });
});
