// `checkwall serve` as a user runs it: the built program in a child process,
// its flags, its config files, its credentials, its signals and its database.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  AlertChannelListSchema,
  CheckResultListSchema,
  CheckStatusListSchema,
} from '../../src/api/schemas/index.js';
import { runCli } from '../helpers/cli.js';
import { closedPortUrl, startFixture, type Fixture } from '../helpers/fixture.js';
import { killStrays, startServe, tempDir, writeConfig } from '../helpers/serve.js';
import { TEST_ACCOUNT, TEST_KEY } from '../helpers/service.js';

const ENV_ACCOUNT = '3f2e1d0c-4b5a-4c6d-8e7f-9a0b1c2d3e4f';
const ENV_KEY = 'cw_env_0123456789abcdef';

let target: Fixture;
beforeAll(async () => {
  // /ok answers at once; /hang holds the request until the test ends.
  target = await startFixture((req, res) => {
    if (req.url.startsWith('/hang')) return;
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
  });
});
afterAll(() => target.close());
afterEach(killStrays);

const auth = (accountId = TEST_ACCOUNT, key = TEST_KEY) => ({
  authorization: `Bearer ${key}`,
  'x-service-account': accountId,
});

async function getJson(url: string, headers: Record<string, string> = auth()) {
  const res = await fetch(url, { headers });
  return { status: res.status, body: (await res.json()) as unknown };
}

/** The results of a check the service has stored so far (last hour, up to 100). */
async function resultIds(base: string, checkId: string, headers = auth()): Promise<string[]> {
  const { body } = await getJson(`${base}/v1/check-results/${checkId}?period=1h&limit=100`, headers);
  return CheckResultListSchema.parse(body).data.map((r) => r.id);
}

// Read lazily: the target exists only once beforeAll ran.
const yamlConfig = (path = '/ok', extra = '') => `# a small self-hosted setup
accounts:
  - id: ${TEST_ACCOUNT}
    name: Team
    apiKeys: [${TEST_KEY}]
    locations:
      - { id: eu-west, name: Frankfurt, region: eu-central-1 }
      - { id: us-east, name: Virginia, region: us-east-1 }
    groups:
      - { id: core, name: Core }
    checks:
      - id: home
        name: Home page
        type: api
        target: ${target?.url ?? 'http://127.0.0.1:9'}${path}
        frequency: 1s
        timeoutMs: 60000
        locations: [eu-west, us-east]
        group: core
        tags: [prod]
        assertions:
          - { source: STATUS_CODE, comparison: EQUALS, target: "200" }
${extra}`;

describe('checkwall serve: start, defaults and stop', () => {
  it('prints one listening line for --port 0, keeps its database under XDG_DATA_HOME, and stops on SIGTERM', async () => {
    const data = tempDir();
    const serve = await startServe(['--port', '0'], {
      XDG_DATA_HOME: data,
      CHECKWALL_ACCOUNT_ID: ENV_ACCOUNT,
      CHECKWALL_API_KEY: ENV_KEY,
    });
    const lines = serve.stdout().split('\n');
    expect(lines.filter((l) => l.includes('listening on'))).toHaveLength(1);
    expect(lines[0]).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+$/);
    expect(serve.url).not.toMatch(/:0$/);
    // The environment's account is the one it accepts.
    const { status, body } = await getJson(`${serve.url}/v1/check-statuses`, auth(ENV_ACCOUNT, ENV_KEY));
    expect(status).toBe(200);
    expect(CheckStatusListSchema.parse(body).data).toEqual([]);
    expect(existsSync(join(data, 'checkwall', 'checkwall.db'))).toBe(true);
    expect(await serve.stop('SIGTERM')).toEqual({ code: 0, signal: null });
    expect(serve.stdout()).toContain('stopping');
  });

  it('falls back to ~/.local/share/checkwall without XDG_DATA_HOME', async () => {
    const home = tempDir();
    const serve = await startServe(['--port', '0'], {
      HOME: home,
      XDG_DATA_HOME: undefined,
      CHECKWALL_ACCOUNT_ID: ENV_ACCOUNT,
      CHECKWALL_API_KEY: ENV_KEY,
    });
    const db = join(home, '.local', 'share', 'checkwall', 'checkwall.db');
    await expect.poll(() => serve.stdout()).toContain(`database ${db}`);
    expect(existsSync(db)).toBe(true);
    expect((await serve.stop('SIGINT')).code).toBe(0);
  });

  it('says why it cannot start: the port in use, exit 1', async () => {
    const first = await startServe(['--port', '0', '--db', ':memory:'], {
      CHECKWALL_ACCOUNT_ID: ENV_ACCOUNT,
      CHECKWALL_API_KEY: ENV_KEY,
    });
    const port = new URL(first.url).port;
    const second = await runCli(['serve', '--port', port, '--db', ':memory:'], {
      CHECKWALL_ACCOUNT_ID: ENV_ACCOUNT,
      CHECKWALL_API_KEY: ENV_KEY,
    });
    expect(second.code).toBe(1);
    expect(second.stderr.trim()).toBe(
      `checkwall serve: cannot listen on 127.0.0.1:${port}: the address is already in use`,
    );
    await first.stop();
  });

  it.each([
    [['--port', '70000'], '--port must be 0-65535'],
    [['--max-alert-channels', 'many'], '--max-alert-channels must be a whole number'],
    [[], 'no accounts'],
  ])('rejects %j with a message and exit 2', async (args, message) => {
    const run = await runCli(['serve', '--db', ':memory:', ...args], {
      CHECKWALL_ACCOUNT_ID: undefined,
      CHECKWALL_API_KEY: undefined,
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
  });

  it('refuses half of an account in the environment', async () => {
    const run = await runCli(['serve', '--demo', '--db', ':memory:', '--port', '0'], {
      CHECKWALL_ACCOUNT_ID: undefined,
      CHECKWALL_API_KEY: ENV_KEY,
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('set both CHECKWALL_ACCOUNT_ID and CHECKWALL_API_KEY');
  });
});

describe('checkwall serve --config', () => {
  it('runs the checks of a YAML config from each location, with --host, --db and --max-alert-channels', async () => {
    const config = writeConfig('checkwall.yaml', yamlConfig());
    const db = join(tempDir(), 'service.db');
    const serve = await startServe([
      '--host',
      '127.0.0.1',
      '--port',
      '0',
      '--db',
      db,
      '--config',
      config,
      '--max-alert-channels',
      '1',
    ]);
    await expect.poll(() => resultIds(serve.url, 'home'), { timeout: 10_000 }).toHaveLength(4);
    const { body } = await getJson(`${serve.url}/v1/check-results/home?period=1h&limit=100`);
    const results = CheckResultListSchema.parse(body).data;
    expect(new Set(results.map((r) => r.location.id))).toEqual(new Set(['eu-west', 'us-east']));
    expect(results.every((r) => r.status === 'success' && r.triggeredBy === 'schedule')).toBe(true);
    const locations = target.seen
      .filter((s) => s.url === '/ok')
      .map((s) => s.headers['x-checkwall-location']);
    expect(new Set(locations)).toEqual(new Set(['eu-west', 'us-east']));

    const create = (name: string) =>
      fetch(`${serve.url}/v1/alert-channels`, {
        method: 'POST',
        headers: { ...auth(), 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'EMAIL', name, config: { address: 'ops@example.com' } }),
      }).then((r) => r.status);
    expect(await create('first')).toBe(201);
    expect(await create('second')).toBe(402);
    expect((await serve.stop()).code).toBe(0);
    expect(existsSync(db)).toBe(true);
  });

  it('reads a JSON config, and the environment’s account replaces the file’s', async () => {
    const config = writeConfig(
      'checkwall.json',
      JSON.stringify({
        retentionDays: 7,
        accounts: [
          {
            id: TEST_ACCOUNT,
            apiKeys: [TEST_KEY],
            locations: [{ id: 'eu-west', name: 'Frankfurt', region: 'eu-central-1' }],
            checks: [
              {
                id: 'json-check',
                name: 'From JSON',
                type: 'url',
                target: `${target.url}/ok`,
                frequency: '1s',
                locations: ['eu-west'],
              },
            ],
          },
        ],
      }),
    );
    const serve = await startServe(['--port', '0', '--db', ':memory:', '--config', config], {
      CHECKWALL_ACCOUNT_ID: ENV_ACCOUNT,
      CHECKWALL_API_KEY: ENV_KEY,
    });
    const envAuth = auth(ENV_ACCOUNT, ENV_KEY);
    await expect.poll(() => resultIds(serve.url, 'json-check', envAuth), { timeout: 10_000 }).not.toEqual([]);
    expect((await getJson(`${serve.url}/v1/check-statuses`, auth())).status).toBe(401);
    await serve.stop();
  });

  it.each([
    [
      'wrong.json',
      JSON.stringify({
        accounts: [
          {
            id: TEST_ACCOUNT,
            apiKeys: [TEST_KEY],
            checks: [{ id: 'x', name: 'X', type: 'ftp', locations: [] }],
          },
        ],
      }),
      ['accounts.0.checks.0.type', 'accounts.0.checks.0.locations'],
    ],
    ['broken.json', '{"accounts": [', ['is not valid JSON']],
    ['broken.yaml', 'accounts:\n  - id: [unclosed\n', ['is not valid YAML']],
    [
      'references.yaml',
      yamlConfig('/ok').replace('[eu-west, us-east]', '[eu-west, mars]'),
      ['accounts.0.checks.0.locations.1: no location "mars"'],
    ],
    // A URL where a host belongs matched no Host header: every request got 421.
    [
      'allowed-hosts.yaml',
      yamlConfig('/ok', 'http:\n  allowedHosts: [localhost:8787, "[::1]", https://checkwall.example.com]\n'),
      ['http.allowedHosts.2: must be a host name or name:port'],
    ],
    // A status page's group was taken on trust: a typo showed a page without its checks.
    [
      'dashboard-group.yaml',
      yamlConfig(
        '/ok',
        '    dashboards:\n      - { id: d, name: D, customUrl: d, checkGroupIds: [core, croe] }\n',
      ),
      ['accounts.0.dashboards.0.checkGroupIds.1: no group "croe"'],
    ],
    [
      'frequency.yaml',
      yamlConfig('/ok').replace('frequency: 1s', 'frequency: often'),
      ['accounts.0.checks.0.frequency: must be a number and a unit'],
    ],
    // A period of 0 stopped the service after it listened; one past Node's longest timer spun a core.
    // An empty file was told to "pass --config FILE", which it had.
    ['empty.yaml', '', ['has no accounts: add one under accounts:']],
    [
      'frequency-0.yaml',
      yamlConfig('/ok').replace('frequency: 1s', 'frequency: 0s'),
      ['accounts.0.checks.0.frequency: must be at least 1s'],
    ],
    [
      'frequency-huge.yaml',
      yamlConfig('/ok').replace('frequency: 1s', 'frequency: 999999h'),
      ['accounts.0.checks.0.frequency: must be at most 8760h (a year)'],
    ],
    [
      'thresholds.yaml',
      yamlConfig('/ok').replace(
        'timeoutMs: 60000',
        'timeoutMs: 60000\n        degradedMs: 2000\n        failingMs: 500',
      ),
      ['accounts.0.checks.0.degradedMs: must not be above failingMs (500)'],
    ],
    [
      'duplicates.yaml',
      yamlConfig('/ok')
        .replace('[eu-west, us-east]', '[eu-west, eu-west]')
        .replace('{ id: us-east, name: Virginia', '{ id: eu-west, name: Virginia'),
      [
        'accounts.0.locations.1.id: "eu-west" is used twice (first at accounts.0.locations.0.id)',
        'accounts.0.checks.0.locations.1: "eu-west" is used twice (first at accounts.0.checks.0.locations.0)',
      ],
    ],
  ])('stops on a bad config %s, naming the file, the field and the problem', async (name, text, expected) => {
    const file = writeConfig(name, text);
    const run = await runCli(['serve', '--port', '0', '--db', ':memory:', '--config', file]);
    expect(run.code).toBe(2);
    expect(run.stdout).not.toContain('listening');
    expect(run.stderr).toContain(file);
    for (const fragment of expected) expect(run.stderr).toContain(fragment);
  });
});

describe('checkwall serve --demo', () => {
  it('prints working demo credentials and serves the demo account', async () => {
    const serve = await startServe(['--demo', '--port', '0', '--db', ':memory:']);
    await expect.poll(() => serve.stdout()).toMatch(/CHECKWALL_API_KEY=\S+\n/);
    const id = /CHECKWALL_ACCOUNT_ID=(\S+)/.exec(serve.stdout())?.[1];
    const key = /CHECKWALL_API_KEY=(\S+)/.exec(serve.stdout())?.[1];
    expect(serve.stdout()).toContain(`CHECKWALL_BASE_URL=${serve.url}`);
    const headers = auth(id, key);
    const statuses = CheckStatusListSchema.parse(
      (await getJson(`${serve.url}/v1/check-statuses?limit=100`, headers)).body,
    );
    expect(statuses.meta.totalItems).toBeGreaterThanOrEqual(18);
    const channels = AlertChannelListSchema.parse(
      (await getJson(`${serve.url}/v1/alert-channels`, headers)).body,
    );
    expect(channels.data.map((c) => c.type).sort()).toEqual(['CHAT', 'EMAIL', 'PHONE', 'SMS', 'WEBHOOK']);
    expect((await getJson(`${serve.url}/v1/public/dashboards/status`, {})).status).toBe(200);
    await serve.stop('SIGINT');
  });

  it('takes the account from the environment and does not print that key', async () => {
    const serve = await startServe(['--demo', '--port', '0', '--db', ':memory:'], {
      CHECKWALL_ACCOUNT_ID: ENV_ACCOUNT,
      CHECKWALL_API_KEY: ENV_KEY,
    });
    await expect.poll(() => serve.stdout()).toContain(`CHECKWALL_ACCOUNT_ID=${ENV_ACCOUNT}`);
    expect(serve.stdout()).not.toContain(ENV_KEY);
    expect((await getJson(`${serve.url}/v1/dashboards`, auth(ENV_ACCOUNT, ENV_KEY))).status).toBe(200);
    await serve.stop();
  });
});

describe('checkwall serve keeps what it stored', () => {
  it('stops on SIGINT with a run in flight, abandoning it cleanly; the results it stored are there after a restart', async () => {
    const db = join(tempDir(), 'graceful.db');
    const hang = `      - id: stuck
        name: Never answers
        type: api
        target: ${target.url}/hang
        frequency: 1s
        timeoutMs: 60000
        locations: [eu-west]
`;
    const config = writeConfig('graceful.yaml', yamlConfig('/ok', hang));
    const serve = await startServe(['--port', '0', '--db', db, '--config', config]);
    await expect.poll(() => resultIds(serve.url, 'home'), { timeout: 10_000 }).not.toEqual([]);
    await expect.poll(() => target.seen.some((s) => s.url === '/hang'), { timeout: 10_000 }).toBe(true);
    const before = await resultIds(serve.url, 'home');
    // The /hang run is in flight and would take a minute: the stop must not wait for it.
    expect(await serve.stop('SIGINT')).toEqual({ code: 0, signal: null });
    const again = await startServe(['--port', '0', '--db', db, '--config', config]);
    const after = await resultIds(again.url, 'home');
    expect(after).toEqual(expect.arrayContaining(before));
    expect(await resultIds(again.url, 'stuck')).toEqual([]); // abandoned, not invented
    await again.stop();
  });

  it('gives a page under way its grace at a stop, ends at once on a second signal, and sends the cut page after a restart', async () => {
    // The receiver holds every page unanswered until told otherwise.
    const hook = await startFixture(() => undefined);
    try {
      const db = join(tempDir(), 'pages.db');
      const config = writeConfig(
        'pages.yaml',
        `alertDelivery: { allowPrivateNetworks: true }
accounts:
  - id: ${TEST_ACCOUNT}
    name: Team
    apiKeys: [${TEST_KEY}]
    locations: [{ id: eu-west, name: Frankfurt, region: eu-central-1 }]
    checks:
      - { id: down, name: Down, type: api, target: "${await closedPortUrl()}/", frequency: 1s, locations: [eu-west], alerts: { afterFailures: 1 } }
    alertChannels:
      - { type: WEBHOOK, name: hook, subscriptions: { checks: [down] }, config: { url: "${hook.url}/hook", method: POST } }
`,
      );
      const first = await startServe(['--port', '0', '--db', db, '--config', config]);
      await expect.poll(() => hook.seen.length, { timeout: 10_000 }).toBe(1);
      const id = hook.seen[0]!.headers['x-checkwall-delivery'];
      expect(id).toEqual(expect.any(String));
      first.child.kill('SIGTERM');
      // Waiting on the page: without the grace it would have gone at once.
      const early = await Promise.race([
        first.exited,
        new Promise((r) => setTimeout(() => r('waiting'), 500)),
      ]);
      expect(early).toBe('waiting');
      expect(first.stdout()).toContain('pages under way have 5 s to finish');
      expect(first.stdout()).toContain(
        'waiting up to 5 s for 1 message under way (a second signal stops at once)',
      );
      expect(await first.stop('SIGTERM')).toEqual({ code: null, signal: 'SIGTERM' });

      hook.handle((_req, res) => res.writeHead(200).end());
      const again = await startServe(['--port', '0', '--db', db, '--config', config]);
      // The page cut short goes again, under its id; the open alert pages nothing new.
      await expect.poll(() => hook.seen.length, { timeout: 10_000 }).toBe(2);
      expect(hook.seen[1]!.headers['x-checkwall-delivery']).toBe(id);
      expect(await again.stop('SIGTERM')).toEqual({ code: 0, signal: null });
    } finally {
      await hook.close();
    }
  });

  it('loses no committed result when killed with SIGKILL', async () => {
    const db = join(tempDir(), 'killed.db');
    const config = writeConfig('killed.yaml', yamlConfig());
    const serve = await startServe(['--port', '0', '--db', db, '--config', config]);
    await expect
      .poll(async () => (await resultIds(serve.url, 'home')).length, { timeout: 10_000 })
      .toBeGreaterThanOrEqual(6);
    const committed = await resultIds(serve.url, 'home');
    expect(await serve.stop('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });
    const again = await startServe(['--port', '0', '--db', db, '--config', config]);
    expect(await resultIds(again.url, 'home')).toEqual(expect.arrayContaining(committed));
    await again.stop();
  });
});
