// `checkwall status` as scripts run it, against the real service.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckStatusSchema, StatusSummarySchema } from '../../src/api/schemas.js';
import { statusTable } from '../../src/commands/status-table.js';
import { runCli } from '../helpers/cli.js';
import { closedPortUrl } from '../helpers/fixture.js';
import { sampleStatus } from '../helpers/samples.js';
import { startTestService, TEST_ACCOUNT, TEST_KEY, type TestService } from '../helpers/service.js';

let svc: TestService;
let env: Record<string, string>;
beforeAll(async () => {
  svc = await startTestService({ checks: 150 });
  await svc.seed('c1', ['failed', 'failed', 'failed'], { location: 'eu-west' });
  await svc.seed('c1', ['failed', 'failed'], { location: 'us-east' });
  for (const id of ['c2', 'c3']) {
    await svc.seed(id, ['success', 'success', 'success'], { location: 'eu-west' });
    await svc.seed(id, ['success', 'success', 'success'], { location: 'us-east' });
  }
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
  it('prints every page as an 80-column table when not a terminal, exit 1 when anything is not passing', async () => {
    const { code, stdout } = await runCli(['status'], env);
    expect(code).toBe(1);
    const lines = stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(151);
    expect(lines[0]).toMatch(/^STATUS\s+NAME/);
    expect(lines[1]).toMatch(/^failing\s+Check 0001/);
    expect(lines[1]).toMatch(/\seu-west\b/);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
    expect(stdout).not.toContain('\u001b[');
  });

  it('exits 0 when every selected check passes', async () => {
    const { code, stdout } = await runCli(['status', '--filter', 'status:passing'], env);
    expect(code).toBe(0);
    expect(stdout.trimEnd().split('\n')).toHaveLength(3);
  });

  it('prints the summary and the API records with --json, filtered', async () => {
    const { code, stdout } = await runCli(['status', '--json', '--filter', 'status:failing type:api'], env);
    expect(code).toBe(1);
    const out = JSON.parse(stdout) as { summary: unknown; checks: unknown[] };
    expect(StatusSummarySchema.parse(out.summary).totalChecks).toBe(150);
    expect(out.checks.map((c) => CheckStatusSchema.parse(c).checkId)).toEqual(['c1']);
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
    const [, row] = statusTable([check], 80, false).split('\n');
    expect(row).toMatch(/\sap-south eu-west\(degraded\)$/);
    // Spare width goes to a long name first, then to the locations.
    const long = { ...check, checkName: 'Checkout through the regional payment gateway' };
    const [, wide] = statusTable([long], 140, false).split('\n');
    expect(wide).toContain('Checkout through the regional payment gateway');
    expect(wide).toMatch(/\sap-south eu-west\(degraded\)$/);
    const [, narrow] = statusTable([long], 80, false).split('\n');
    // At 80 columns a long name and the degraded location are cut; the failing one stays whole.
    expect(narrow).toMatch(/^failing\s+Checkout through the reg~ /);
    expect(narrow).toMatch(/\sap-south eu-west\(~$/);
    expect(narrow!.length).toBeLessThanOrEqual(80);
  });
});
