// `checkwall status` as scripts run it, against the real service.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckStatusSchema, StatusSummarySchema } from '../../src/api/schemas/index.js';
import { GENEROUS_WIDTH, tableWidth } from '../../src/commands/status.js';
import { statusTable } from '../../src/commands/status-table.js';
import { runCli } from '../helpers/cli.js';
import { closedPortUrl, json, startFixture } from '../helpers/fixture.js';
import { sampleStatus, statusPage } from '../helpers/samples.js';
import {
  startTestService,
  TEST_ACCOUNT,
  TEST_KEY,
  testConfig,
  type TestService,
} from '../helpers/service.js';

const LONG_NAME = 'Check 0003 through the regional payment gateway of the north';

const CERT_EXPIRES = new Date(Date.now() + 10 * 86_400_000 + 3_600_000).toISOString();
const CERTIFICATE = {
  subject: 'CN=localhost',
  issuer: 'CN=Checkwall Test CA',
  serialNumber: '01',
  validFrom: '2026-01-01T00:00:00.000Z',
  validTo: CERT_EXPIRES,
  daysRemaining: 10,
  chainValidTo: CERT_EXPIRES,
  chainDaysRemaining: 10,
};

let svc: TestService;
let env: Record<string, string>;
beforeAll(async () => {
  const config = testConfig(150);
  config.accounts[0]!.checks[2]!.name = LONG_NAME;
  // An HTTPS target, so its status is read with the certificate of its newest result.
  config.accounts[0]!.checks[1]!.target = 'https://127.0.0.1:9/health';
  svc = await startTestService({ config });
  await svc.seed('c1', ['failed', 'failed', 'failed'], { location: 'eu-west' });
  await svc.seed('c1', ['failed', 'failed'], { location: 'us-east' });
  for (const id of ['c2', 'c3']) {
    await svc.seed(id, ['success', 'success', 'success'], { location: 'eu-west' });
    await svc.seed(id, ['success', 'success', 'success'], { location: 'us-east' });
  }
  await svc.seed('c2', ['success'], { location: 'eu-west', certificate: CERTIFICATE });
  svc.engine.rereadAll();
  env = {
    CHECKWALL_BASE_URL: svc.url,
    CHECKWALL_API_KEY: TEST_KEY,
    CHECKWALL_ACCOUNT_ID: TEST_ACCOUNT,
    NO_COLOR: '1',
  };
});
afterAll(() => svc.close());

describe('checkwall status', () => {
  it("--json carries each check's certificate: its days remaining and expiry (issue 35)", async () => {
    const { stdout } = await runCli(['status', '--json', '--filter', 'status:passing'], env);
    const checks = (JSON.parse(stdout) as { checks: unknown[] }).checks.map((c) =>
      CheckStatusSchema.parse(c),
    );
    expect(checks.find((c) => c.checkId === 'c2')?.certificate).toEqual({
      daysRemaining: 10,
      validTo: CERT_EXPIRES,
    });
    expect(checks.find((c) => c.checkId === 'c3')?.certificate).toBeNull();
  });

  it('prints every page as a table as wide as COLUMNS when not a terminal, exit 1 when anything is not passing', async () => {
    const { code, stdout } = await runCli(['status'], { ...env, COLUMNS: '80' });
    expect(code).toBe(1);
    const lines = stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(152);
    expect(lines[0]).toMatch(/^STATUS\s+NAME/);
    expect(lines[1]).toMatch(/^failing\s+Check 0001/);
    expect(lines[1]).toMatch(/\seu-west\b/);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
    expect(lines.join('\n')).not.toContain(LONG_NAME);
    expect(lines[151]).toBe('150 checks: 1 failing, 0 degraded, 147 unknown, 2 passing');
    expect(stdout).not.toContain('\u001b[');
  });

  it('does not cut names at 80 (or 25) when not a terminal and no width is given; --width wins', async () => {
    const wide = await runCli(['status', '--filter', 'status:passing'], env);
    expect(wide.stdout).toContain(LONG_NAME);
    const narrow = await runCli(['status', '--filter', 'status:passing', '--width', '60'], {
      ...env,
      COLUMNS: '200',
    });
    const rows = narrow.stdout.trimEnd().split('\n').slice(0, -1);
    for (const line of rows) expect(line.length).toBeLessThanOrEqual(60);
    expect(narrow.stdout).not.toContain(LONG_NAME);
    const json = await runCli(['status', '--json', '--filter', 'status:passing'], { ...env, COLUMNS: '40' });
    const names = (JSON.parse(json.stdout) as { checks: Array<{ checkName: string }> }).checks;
    expect(names.map((c) => c.checkName)).toContain(LONG_NAME);
    const bad = await runCli(['status', '--width', 'wide'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--width');
  });

  it('exits 0 when every selected check passes, with the counts of the selected checks', async () => {
    const { code, stdout } = await runCli(['status', '--filter', 'status:passing', '--ascii'], env);
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[3]).toBe('2 checks: 0 failing, 0 degraded, 0 unknown, 2 passing (filter status:passing)');
  });

  it('exits 2 when the filter or dashboard selects no check: an empty gate does not pass', async () => {
    const none = await runCli(['status', '--filter', 'nosuchcheck'], env);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('no check matches nosuchcheck');
    const json = await runCli(['status', '--json', '--filter', 'tag:nosuchtag'], env);
    expect(json.code).toBe(2);
    expect(json.stderr).toContain('no check matches tag:nosuchtag');
    const dash = await runCli(['status', '--dashboard', 'public', '--filter', 'status:failing'], env);
    expect(dash.code).toBe(2);
    expect(dash.stderr).toContain('no check on dashboard Public status matches status:failing');
    const missing = await runCli(['status', '--dashboard', 'nope'], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no dashboard "nope"');
  });

  it("prints the selected checks' summary and records with --json, filtered", async () => {
    const { code, stdout } = await runCli(['status', '--json', '--filter', 'status:failing type:api'], env);
    expect(code).toBe(1);
    const out = JSON.parse(stdout) as { summary: unknown; checks: unknown[] };
    const summary = StatusSummarySchema.parse(out.summary);
    expect(summary).toMatchObject({ totalChecks: 1, failing: 1, passing: 0 });
    expect(out.checks.map((c) => CheckStatusSchema.parse(c).checkId)).toEqual(['c1']);
    const all = JSON.parse((await runCli(['status', '--json'], env)).stdout) as { summary: unknown };
    expect(StatusSummarySchema.parse(all.summary).totalChecks).toBe(150);
  });

  it("reads only a dashboard's checks with --dashboard, and sums those", async () => {
    const { code, stdout } = await runCli(['status', '--json', '--dashboard', 'public'], env);
    expect(code).toBe(0);
    const out = JSON.parse(stdout) as { summary: unknown; checks: Array<{ checkId: string }> };
    expect(out.checks.map((c) => c.checkId)).toEqual(['c2']);
    expect(StatusSummarySchema.parse(out.summary)).toMatchObject({ totalChecks: 1, passing: 1 });
  });

  it('reads all 150 checks with --json', async () => {
    const { stdout } = await runCli(['status', '--json'], env);
    expect((JSON.parse(stdout) as { checks: unknown[] }).checks).toHaveLength(150);
  });

  it('exits 2 with the reason on stderr: bad flag, bad filter, missing settings, service down', async () => {
    const bad = await runCli(['status', '--bogus'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--bogus');
    const filter = await runCli(['status', '--filter', 'status:sideways'], env);
    expect(filter.code).toBe(2);
    expect(filter.stderr).toContain('sideways');
    const missing = await runCli(['status'], {
      CHECKWALL_BASE_URL: '',
      CHECKWALL_API_KEY: '',
      CHECKWALL_ACCOUNT_ID: '',
    });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('CHECKWALL_API_KEY');
    const down = await runCli(['status'], { ...env, CHECKWALL_BASE_URL: await closedPortUrl() });
    expect(down.code).toBe(2);
    expect(down.stderr).toMatch(/network/);
    expect(down.stderr + down.stdout).not.toContain(TEST_KEY);
  });
});

describe('the status table', () => {
  it('names failing locations first, then degraded ones, so a narrow column keeps the failing', () => {
    const loc = (id: string, status: 'passing' | 'failing' | 'degraded') => ({
      id,
      name: id,
      status,
      lastSuccess: null,
    });
    const check = sampleStatus('c', {
      checkName: 'Checkout',
      status: 'failing',
      locations: [loc('eu-west', 'degraded'), loc('us-east', 'passing'), loc('ap-south', 'failing')],
    });
    const [, row] = statusTable([check], 80, { color: false }).split('\n');
    expect(row).toMatch(/\sap-south eu-west\(degraded\)$/);
    // Spare width goes to a long name first, then to the locations.
    const long = { ...check, checkName: 'Checkout through the regional payment gateway' };
    const [, wide] = statusTable([long], 140, { color: false }).split('\n');
    expect(wide).toContain('Checkout through the regional payment gateway');
    expect(wide).toMatch(/\sap-south eu-west\(degraded\)$/);
    const [, narrow] = statusTable([long], 80, { color: false }).split('\n');
    // At 80 columns the name is whole up to 32 cells, TYPE drops, then the degraded location is cut.
    expect(narrow).toMatch(/^failing\s+Checkout through the regional p~ /);
    expect(narrow).not.toContain(' api ');
    expect(narrow).toMatch(/\sap-south eu-west\(deg~$/);
    expect(narrow!.length).toBeLessThanOrEqual(80);
  });
});

describe('the status table width', () => {
  it("is --width, else the terminal's, else COLUMNS, else generous", () => {
    expect(tableWidth('90', 120, { COLUMNS: '100' })).toBe(90);
    expect(tableWidth(undefined, 120, { COLUMNS: '100' })).toBe(120);
    expect(tableWidth(undefined, undefined, { COLUMNS: '100' })).toBe(100);
    expect(tableWidth(undefined, undefined, { COLUMNS: 'x' })).toBe(GENEROUS_WIDTH);
    expect(tableWidth(undefined, undefined, {})).toBe(GENEROUS_WIDTH);
    expect(() => tableWidth('5', undefined, {})).toThrow(/--width/);
  });

  it('shows no response time for a heartbeat: P95 is "-" in ASCII, not 0 ms', () => {
    const beat = sampleStatus('h', { checkName: 'Nightly job', checkType: 'heartbeat', status: 'passing' });
    const table = statusTable([{ ...beat, performance: { ...beat.performance, p95ResponseTime: 1 } }], 80, {
      color: false,
      ascii: true,
    });
    expect(table.split('\n')[1]).toMatch(/^passing\s+Nightly job\s+heartbeat\s+\S+\s+-(\s|$)/);
    expect(table).not.toContain('1 ms');
  });

  it('lists a heartbeat awaiting its first ping as waiting', () => {
    const beat = sampleStatus('h', { checkName: 'Nightly job', checkType: 'heartbeat', status: 'unknown' });
    const dueBy = '2026-11-24T03:10:00.000Z';
    const table = statusTable([{ ...beat, awaitingFirstPing: { dueBy } }], 80, { color: false, ascii: true });
    expect(table.split('\n')[1]).toMatch(/^waiting\s+Nightly job\s+heartbeat/);
  });
});

describe("checkwall status and the service's own health", () => {
  const envFor = (url: string) => ({ ...env, CHECKWALL_BASE_URL: url });

  it("says SERVICE DEGRADED with the reason and since when, when the list's meta says so", async () => {
    const page = statusPage([sampleStatus('a', { checkName: 'Alpha' })], 1, 1, 1);
    const since = '2026-11-22T09:03:07.000Z';
    const body = {
      ...page,
      meta: {
        ...page.meta,
        service: { status: 'degraded', reasons: [{ code: 'db', message: 'results are 5 min late', since }] },
      },
    };
    const fixture = await startFixture((_req, res) => json(res, 200, body));
    try {
      const run = await runCli(['status'], envFor(fixture.url));
      expect(run.code).toBe(0);
      expect(run.stderr).toContain('SERVICE DEGRADED: results are 5 min late since 09:03:07 UTC');
      const asJson = await runCli(['status', '--json'], envFor(fixture.url));
      expect((JSON.parse(asJson.stdout) as { service: { status: string } }).service.status).toBe('degraded');
    } finally {
      await fixture.close();
    }
  });

  it("shows a 503 with a reason as the service's trouble, not a connection error", async () => {
    const fixture = await startFixture((_req, res) =>
      json(res, 503, {
        statusCode: 503,
        error: 'Service Unavailable',
        message: 'the database is unreachable',
      }),
    );
    try {
      const run = await runCli(['status'], envFor(fixture.url));
      expect(run.code).toBe(2);
      expect(run.stderr).toBe('checkwall status: service: the database is unreachable\n');
    } finally {
      await fixture.close();
    }
  });
});
