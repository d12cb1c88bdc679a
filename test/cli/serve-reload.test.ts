// `checkwall serve` reloading its config as a user does it: the built program,
// a YAML file rewritten on disk, SIGHUP. Also what it refuses at start: unknown
// keys (named by path, the same message a reload gets) and a --db it cannot use.
import { existsSync, writeFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CheckResultListSchema, CheckStatusListSchema } from '../../src/api/schemas/index.js';
import { runCli } from '../helpers/cli.js';
import { startFixture, type Fixture } from '../helpers/fixture.js';
import { killStrays, startServe, writeConfig } from '../helpers/serve.js';
import { TEST_ACCOUNT, TEST_KEY } from '../helpers/service.js';

let target: Fixture;
beforeAll(async () => {
  target = await startFixture((_req, res) => res.writeHead(200).end('ok'));
});
afterAll(() => target.close());
afterEach(killStrays);

const headers = { authorization: `Bearer ${TEST_KEY}`, 'x-service-account': TEST_ACCOUNT };

const yaml = (checks: string) => `accounts:
  - id: ${TEST_ACCOUNT}
    apiKeys: [${TEST_KEY}]
    locations: [{ id: eu-west, name: Frankfurt, region: eu-central-1 }]
    checks:
${checks}`;
const check = (id: string, extra = 'frequency: 1s') =>
  `      - { id: ${id}, name: ${id}, type: api, target: "${target.url}/${id}", locations: [eu-west], ${extra} }\n`;

async function checkIds(url: string): Promise<string[]> {
  const res = await fetch(`${url}/v1/check-statuses?sortBy=name`, { headers });
  return CheckStatusListSchema.parse(await res.json()).data.map((s) => s.checkId);
}

async function resultCount(url: string, id: string): Promise<number> {
  const res = await fetch(`${url}/v1/check-results/${id}?period=1h&limit=100`, { headers });
  return CheckResultListSchema.parse(await res.json()).data.length;
}

const TYPO = 'accounts.0.checks.1.frequncy: unknown key "frequncy"';

describe('checkwall serve: config reload', () => {
  it('reloads on SIGHUP and on a change to the file, and keeps the running config when the new one is bad', async () => {
    const path = writeConfig('checkwall.yaml', yaml(check('home')));
    const serve = await startServe(['--port', '0', '--db', ':memory:', '--config', path]);
    await expect.poll(() => resultCount(serve.url, 'home'), { timeout: 10_000 }).toBeGreaterThan(0);

    // SIGHUP reloads (and does not end the process, as it would by default).
    serve.child.kill('SIGHUP');
    await expect.poll(() => serve.stdout()).toContain('config reloaded (SIGHUP): no check changed');

    // A change to the file is picked up on its own: the new check runs, the old one keeps its results.
    const before = await resultCount(serve.url, 'home');
    writeFileSync(path, yaml(check('home') + check('more')));
    await expect
      .poll(() => serve.stdout(), { timeout: 10_000 })
      .toContain('config reloaded (checkwall.yaml changed): 1 check added');
    expect(await checkIds(serve.url)).toEqual(['home', 'more']);
    await expect.poll(() => resultCount(serve.url, 'more'), { timeout: 10_000 }).toBeGreaterThan(0);
    expect(await resultCount(serve.url, 'home')).toBeGreaterThanOrEqual(before);

    // A typo is refused with its path, on a change and on SIGHUP; the running config stays.
    writeFileSync(path, yaml(check('home') + check('more', 'frequncy: 1s')));
    await expect.poll(() => serve.stderr(), { timeout: 10_000 }).toContain(TYPO);
    expect(serve.stderr()).toContain(
      'config not reloaded (checkwall.yaml changed); the previous one keeps running:',
    );
    serve.child.kill('SIGHUP');
    await expect.poll(() => serve.stderr()).toContain('config not reloaded (SIGHUP)');
    expect(await checkIds(serve.url)).toEqual(['home', 'more']);
    const more = await resultCount(serve.url, 'more');
    await expect.poll(() => resultCount(serve.url, 'more'), { timeout: 10_000 }).toBeGreaterThan(more);

    // The message is the one the same file gets at start.
    const start = await runCli(['serve', '--port', '0', '--db', ':memory:', '--config', path]);
    expect(start.code).toBe(2);
    const atStart = start.stderr.replace(/^checkwall serve: /, '').trim();
    expect(atStart).toContain(TYPO);
    expect(serve.stderr()).toContain(`the previous one keeps running: ${atStart}`);
    expect(await serve.stop()).toEqual({ code: 0, signal: null });
  });

  it('refuses unknown keys anywhere at start, each named by its path', async () => {
    const path = writeConfig(
      'checkwall.yaml',
      `smpt: { url: 'smtp://mail' }\n${yaml(check('home', 'frequency: 1m, frequncy: 1s'))}    alerts: []\n`,
    );
    const run = await runCli(['serve', '--port', '0', '--db', ':memory:', '--config', path]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${path} is not a valid checkwall config`);
    expect(run.stderr).toContain('smpt: unknown key "smpt"');
    expect(run.stderr).toContain('accounts.0.alerts: unknown key "alerts"');
    expect(run.stderr).toContain('accounts.0.checks.0.frequncy: unknown key "frequncy"');
  });

  it('refuses a URL of another database for --db or CHECKWALL_DATABASE_URL, without echoing what may be a password', async () => {
    const env = { CHECKWALL_ACCOUNT_ID: TEST_ACCOUNT, CHECKWALL_API_KEY: TEST_KEY };
    const flag = await runCli(
      ['serve', '--port', '0', '--db', 'mysql://cw:s3cret@db.internal/checkwall'],
      env,
    );
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain(
      '--db takes a file path, :memory: or a postgres:// URL; "mysql:…" is not a database checkwall can use',
    );
    expect(flag.stderr).not.toContain('s3cret');
    expect(existsSync('mysql:')).toBe(false);
    const fromEnv = await runCli(['serve', '--port', '0'], {
      ...env,
      CHECKWALL_DATABASE_URL: 'mysql://cw:s3cret@db.internal/checkwall',
    });
    expect(fromEnv.code).toBe(2);
    expect(fromEnv.stderr).toContain(
      'CHECKWALL_DATABASE_URL takes a file path, :memory: or a postgres:// URL',
    );
    expect(fromEnv.stderr).not.toContain('s3cret');
  });

  it('says which PostgreSQL it cannot reach, in one line and without the password', async () => {
    const run = await runCli(['serve', '--port', '0', '--db', 'postgres://cw:s3cret@127.0.0.1:1/checkwall'], {
      CHECKWALL_ACCOUNT_ID: TEST_ACCOUNT,
      CHECKWALL_API_KEY: TEST_KEY,
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^checkwall serve: cannot open the database 127\.0\.0\.1:1\/checkwall: .*ECONNREFUSED.*\n$/,
    );
    expect(run.stderr).not.toContain('s3cret');
    expect(existsSync('postgres:')).toBe(false);
  });
});
