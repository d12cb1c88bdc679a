// Maintenance windows end to end (issue 33), on the real service: the built
// `checkwall maintenance` as a deploy script runs it (its exit codes, and the
// `id=$(…)` form through a real shell), and the console in tmux silencing a
// check with M and showing the window in the check view. Needs `npm run build`.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import { runCli, runProgram } from '../helpers/cli.js';
import { closedPortUrl } from '../helpers/fixture.js';
import {
  startTestService,
  TEST_ACCOUNT,
  TEST_KEY,
  testConfig,
  type TestService,
} from '../helpers/service.js';
import { ServiceConfigSchema } from '../../src/server/config/schema.js';
import { hasTmux, startTerminal, type Terminal } from '../helpers/tmux.js';

const OPS_KEY = 'cw_ops_0123456789abcdef0123';
const READ_KEY = 'cw_read_0123456789abcdef0123';

/** The test account with an operate and a read key, and a recurring window from the config (read-only over the API). */
function maintenanceConfig() {
  const config = testConfig(3);
  const [account, ...others] = config.accounts;
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  return ServiceConfigSchema.parse({
    ...config,
    accounts: [
      {
        ...account!,
        apiKeys: [
          ...account!.apiKeys,
          { key: OPS_KEY, name: 'deployer', role: 'operate' },
          { key: READ_KEY, name: 'viewer', role: 'read' },
        ],
        maintenanceWindows: [
          {
            id: 'nightly',
            name: 'nightly vacuum',
            reason: 'database vacuum',
            scope: { tags: ['odd'] },
            startsAt: `${tomorrow}T01:00:00.000Z`,
            duration: '1h',
            repeat: { frequency: 'daily', timezone: 'Europe/Berlin' },
          },
        ],
      },
      ...others,
    ],
  });
}

let svc: TestService;
const env = (key = OPS_KEY) => ({
  CHECKWALL_BASE_URL: svc.url,
  CHECKWALL_API_KEY: key,
  CHECKWALL_ACCOUNT_ID: TEST_ACCOUNT,
  NO_COLOR: '1',
});
const admin = () => createClient({ baseUrl: svc.url, apiKey: TEST_KEY, accountId: TEST_ACCOUNT });

beforeAll(async () => {
  svc = await startTestService({ config: maintenanceConfig() });
  await svc.seed('c1', ['success', 'failed']);
});
afterAll(() => svc.close());

describe('checkwall maintenance, against the service', () => {
  it('id=$(checkwall maintenance start …) captures the id alone; list shows it; end ends it (exit 0)', async () => {
    const script =
      'id=$("$NODE" bin/checkwall.js maintenance start --check c1 --check c2 --for 30m --reason "deploy 4.2") || exit $?; printf "[%s]" "$id"';
    const started = await runProgram('/bin/sh', ['-c', script], {
      ...process.env,
      ...env(),
      NODE: process.execPath,
    });
    expect(started.stderr).toBe('');
    expect(started.code).toBe(0);
    const id = /^\[([^\]\s]+)\]$/.exec(started.stdout)?.[1];
    expect(id, started.stdout).toBeDefined();

    const client = admin();
    try {
      const window = await client.maintenanceWindow(id!);
      expect(window).toMatchObject({
        name: 'deploy 4.2',
        reason: 'deploy 4.2',
        createdBy: 'deployer',
        mode: 'silence',
        state: 'active',
        scope: { checks: ['c1', 'c2'] },
      });
      await expect
        .poll(
          async () =>
            (await client.checkStatuses({ limit: 100 })).data.find((c) => c.checkId === 'c1')?.maintenance
              ?.id,
        )
        .toBe(id);

      const listed = await runCli(['maintenance', 'list', '--json'], env());
      expect(listed.code).toBe(0);
      expect((JSON.parse(listed.stdout) as Array<{ id: string }>).map((w) => w.id)).toContain(id);
      const table = await runCli(['maintenance', 'list'], env());
      expect(table.stdout).toMatch(
        new RegExp(
          // The checks it covers now, then its name said once (it defaulted to the reason).
          `${id}\\s+active\\s+silence\\s+ends in \\d+m\\s+2 checks\\s+c1,c2\\s+deployer\\s+deploy 4.2$`,
          'm',
        ),
      );

      const ended = await runCli(['maintenance', 'end', id!], env());
      expect(ended.stderr).toBe('');
      expect(ended.code).toBe(0);
      expect(ended.stdout).toBe(`ended ${id} (deploy 4.2)\n`);
      expect((await client.maintenanceWindow(id!)).state).toBe('ended');
    } finally {
      await client.close();
    }
  }, 60_000);

  it('--json prints the whole window', async () => {
    const r = await runCli(
      [
        'maintenance',
        'start',
        '--tag',
        'odd',
        '--for',
        '15m',
        '--reason',
        'r',
        '--name',
        'odd ones',
        '--mode',
        'pause',
        '--json',
      ],
      env(),
    );
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      name: 'odd ones',
      mode: 'pause',
      scope: { tags: ['odd'] },
      state: 'active',
    });
    await runCli(['maintenance', 'end', (JSON.parse(r.stdout) as { id: string }).id], env());
  }, 60_000);

  it('exits 2 with the service’s message on a 400 (unknown check), a 403 (a read key), a 409 (a config window) and a 404', async () => {
    const unknown = await runCli(
      ['maintenance', 'start', '--check', 'nope', '--for', '30m', '--reason', 'r'],
      env(),
    );
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toMatch(/^checkwall maintenance start: http 400: .*nope/);

    const read = await runCli(
      ['maintenance', 'start', '--check', 'c1', '--for', '30m', '--reason', 'r'],
      env(READ_KEY),
    );
    expect(read.code).toBe(2);
    expect(read.stderr).toMatch(/^checkwall maintenance start: http 403: /);

    const fromConfig = await runCli(['maintenance', 'end', 'nightly'], env());
    expect(fromConfig.code).toBe(2);
    expect(fromConfig.stderr).toMatch(/^checkwall maintenance end: http 409: /);

    const missing = await runCli(['maintenance', 'end', 'no-such-window'], env());
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^checkwall maintenance end: http 404: /);
  }, 60_000);

  it('exits 2 when the service cannot be reached, and on a usage error, before any request', async () => {
    const closed = await runCli(['maintenance', 'list'], {
      ...env(),
      CHECKWALL_BASE_URL: await closedPortUrl(),
    });
    expect(closed.code).toBe(2);
    expect(closed.stderr).toMatch(/^checkwall maintenance list: network: .*could not reach the service/);
    const usage = await runCli(['maintenance', 'start', '--check', 'c1', '--for', '30m'], env());
    expect(usage.code).toBe(2);
    expect(usage.stderr.split('\n')[0]).toMatch(/--reason/);
  }, 60_000);
});

let term: Terminal | undefined;
afterEach(() => term?.kill());

describe.skipIf(!hasTmux)('in a terminal (tmux)', () => {
  it('checkwall maintenance start says what it started, with the id, to a person', async () => {
    const command = `${process.execPath} bin/checkwall.js maintenance start --check c2 --for 15m --reason "tty line"`;
    term = startTerminal(command, {
      cols: 160,
      rows: 10,
      env: { ...env(), XDG_CONFIG_HOME: '/nonexistent-checkwall' },
    });
    const screen = await term.waitFor(
      /silence over check c2 until \d\d:\d\d:\d\d \((14|15)m from now\): tty line/,
      30_000,
    );
    const id = /^(\S+): silence over/m.exec(screen)?.[1];
    expect(id).toBeDefined();
    await expect.poll(() => term!.exited(), { timeout: 10_000 }).toBe(true);
    const client = admin();
    try {
      expect(await client.maintenanceWindow(id!)).toMatchObject({ reason: 'tty line', state: 'active' });
      await client.patchMaintenanceWindow(id!, { endsAt: 'now' });
    } finally {
      await client.close();
    }
  }, 60_000);

  it('silences the filtered check for an hour with a reason; the check view shows the window; :maintenance ends it', async () => {
    term = startTerminal(`${process.execPath} bin/checkwall.js --refresh 2`, {
      cols: 120,
      rows: 36,
      env: { ...env(), XDG_CONFIG_HOME: '/nonexistent-checkwall' },
    });
    await term.waitFor('Check 0001', 30_000);
    term.type('/Check 0003');
    term.sendKeys('Enter');
    term.sendKeys('M');
    await term.waitFor('Maintenance (silence) for the 1 check the filter shows');
    term.type('soon');
    term.sendKeys('Enter');
    await term.waitFor('"soon" is neither a duration');
    term.sendKeys('BSpace', 'BSpace', 'BSpace', 'BSpace');
    term.type('1h');
    term.sendKeys('Enter');
    await term.waitFor('Reason (required):');
    term.type('db failover drill');
    term.sendKeys('Enter');
    await term.waitFor(/silenced the 1 check the filter shows until \d\d:\d\d:\d\d \(window \S+\)/);

    const client = admin();
    try {
      const c3 = async () =>
        (await client.checkStatuses({ limit: 100 })).data.find((c) => c.checkId === 'c3');
      await expect.poll(async () => (await c3())?.maintenance?.name).toBe('db failover drill');
    } finally {
      await client.close();
    }
    // The board's row says it is silenced, and for how long (the HOLD column).
    await term.waitFor(/Check 0003.*∅ (59|60)m/);
    term.sendKeys('Enter');
    const screen = await term.waitFor(
      /Maintenance db failover drill \(silenced: pages are held\), by deployer, ends in (59|60)m/,
    );
    expect(screen).toContain('reason: db failover drill');

    term.type(':maintenance');
    term.sendKeys('Enter');
    await term.waitFor(/active\s+db failover drill\s+ends in (59|60)m\s+silence\s+check c3\s+1 deployer/);
    term.sendKeys('e');
    await term.waitFor('End db failover drill now? Its checks page again if still failing.');
    term.sendKeys('y');
    await term.waitFor('ended db failover drill');
    const after = admin();
    try {
      const c3 = async () => (await after.checkStatuses({ limit: 100 })).data.find((c) => c.checkId === 'c3');
      await expect.poll(async () => (await c3())?.maintenance ?? null).toBeNull();
    } finally {
      await after.close();
    }
    term.sendKeys('q');
    await expect.poll(() => term!.exited(), { timeout: 10_000 }).toBe(true);
  }, 90_000);
});
