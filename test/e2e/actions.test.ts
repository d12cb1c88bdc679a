// Acting on checks with the built program against the real service (`checkwall
// serve` on a config): `checkwall run` as a deploy gate reads it (0 passed, 1
// failed, 2 nothing matched), and the console in tmux running a check now with
// ctrl+r (a manual result appears) and pausing it with z. `npm run build` first.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startFixture, type Fixture } from '../helpers/fixture.js';
import { killStrays, startServe, writeConfig, type ServeProcess } from '../helpers/serve.js';
import { TEST_ACCOUNT, TEST_KEY } from '../helpers/service.js';
import { hasTmux, startTerminal, type Terminal } from '../helpers/tmux.js';

let target: Fixture;
let serve: ServeProcess;
let term: Terminal | undefined;

beforeAll(async () => {
  target = await startFixture(
    (req, res) => void res.writeHead(req.url.startsWith('/broken') ? 500 : 200).end('answer'),
  );
  const check = (id: string, name: string, path: string) => ({
    id,
    name,
    type: 'api',
    target: `${target.url}${path}`,
    frequency: '1h',
    locations: ['near'],
  });
  const config = {
    accounts: [
      {
        id: TEST_ACCOUNT,
        apiKeys: [TEST_KEY],
        locations: [{ id: 'near', name: 'Near', region: 'here' }],
        checks: [check('storefront', 'Storefront', '/ok'), check('payments', 'Payments', '/broken')],
      },
    ],
  };
  serve = await startServe(
    ['--port', '0', '--db', ':memory:', '--config', writeConfig('c.json', JSON.stringify(config))],
    {},
    30_000,
  );
}, 60_000);
afterEach(() => term?.kill());
afterAll(async () => {
  killStrays();
  await target.close();
});

const env = () => ({
  CHECKWALL_BASE_URL: serve.url,
  CHECKWALL_API_KEY: TEST_KEY,
  CHECKWALL_ACCOUNT_ID: TEST_ACCOUNT,
});

describe('checkwall run against the real service', { timeout: 60_000 }, () => {
  it('exits 0 when every run passed, one line per run', async () => {
    const run = await runCli(['run', 'storefront', '--timeout', '30s'], env(), 40_000);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout.trimEnd().split('\n')).toEqual([
      expect.stringMatching(/^passed\s+storefront\s+near\s+\S+/),
    ]);
  });

  it('exits 1 when a run failed, saying what failed', async () => {
    const run = await runCli(['run', 'payments', '--timeout', '30s'], env(), 40_000);
    expect(run.code).toBe(1);
    expect(run.stdout.trimEnd().split('\n')).toEqual([
      expect.stringMatching(/^failed\s+payments\s+near\s+\S+ m?s\s+.*500/),
    ]);
  });

  it('exits 2 for a check id that matches nothing, naming it', async () => {
    const run = await runCli(['run', 'nosuch'], env(), 40_000);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^checkwall run: .*400.*nosuch/);
  });
});

describe.skipIf(!hasTmux)('the console in tmux against the real service', { timeout: 90_000 }, () => {
  it('runs a check now with ctrl+r (a manual result appears) and pauses it with z', async () => {
    term = startTerminal(`${process.execPath} bin/checkwall.js console --refresh 2`, {
      cols: 120,
      rows: 40,
      env: env(),
    });
    await term.waitFor('Storefront', 30_000);
    term.sendKeys('/');
    term.type('Storefront');
    term.sendKeys('Enter');
    await expect.poll(() => term!.capture()).not.toContain('Payments');
    term.sendKeys('Enter');
    await term.waitFor(/passing\s+Storefront/, 20_000);

    term.sendKeys('C-r');
    await term.waitFor('Run Storefront now at 1 location?');
    term.sendKeys('y');
    await term.waitFor(/Storefront now: {2}near ✔ passed {2}all in/, 30_000);
    // The manual run is in the results list and is the one selected.
    await term.waitFor(/^›.*manual/m, 20_000);

    term.sendKeys('z');
    await term.waitFor('Pause Storefront? It stops running until someone resumes it.');
    term.sendKeys('y');
    await term.waitFor(/paused by key-[0-9a-f]{8} since \d{4}-\d\d-\d\d \d\d:\d\d UTC/, 20_000);
    await term.waitFor(/Actions .*key-[0-9a-f]{8}\s+paused it/, 20_000);
  });
});
