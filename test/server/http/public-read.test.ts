// The public dashboard read answers without credentials: it shows each check
// through the public projection (exactly its fields), an incident and the recent
// runs only when the dashboard says so, and nothing that names the inside.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PublicDashboardSchema } from '../../../src/api/schemas/index.js';
import { ServiceConfigSchema } from '../../../src/server/config/schema.js';
import { sampleResult } from '../../helpers/samples.js';
import { startTestService, testConfig, TEST_ACCOUNT, type TestService } from '../../helpers/service.js';

const INTERNAL = 'connect ECONNREFUSED 10.20.30.40:5432';
let svc: TestService;

beforeAll(async () => {
  const base = testConfig();
  const account = base.accounts[0]!;
  const board = (id: string, shows: boolean) => ({
    id,
    name: id,
    customUrl: id,
    isPrivate: false,
    checkIds: ['c2'],
    tags: ['internal-team'],
    customDomain: `${id}.status.example`,
    configuration: { showIncidents: shows, showCheckResults: shows },
  });
  const config = ServiceConfigSchema.parse({
    ...base,
    accounts: [
      {
        ...account,
        dashboards: [
          ...account.dashboards,
          board('shown', true),
          board('hidden', false),
          { ...board('grouped', false), checkGroupIds: ['core'] },
        ],
      },
      ...base.accounts.slice(1),
    ],
  });
  svc = await startTestService({ config });
  await svc.seed('c2', Array<'failed'>(12).fill('failed'));
  // The newest run failed on an internal address, with the assertion's value.
  const at = Date.now() - 500;
  await svc.record(
    TEST_ACCOUNT,
    sampleResult(randomUUID(), {
      checkId: 'c2',
      checkName: 'Check 0002',
      status: 'failed',
      startedAt: new Date(at).toISOString(),
      finishedAt: new Date(at + 10).toISOString(),
      duration: 10,
      response: null,
      error: { name: 'ConnectionError', message: INTERNAL, stack: INTERNAL },
    }),
  );
});
afterAll(() => svc.close());

const read = async (slug: string) => {
  const res = await fetch(`${svc.url}/v1/public/dashboards/${slug}`);
  expect(res.status).toBe(200);
  return { res, text: await res.text() };
};

/** Every key, deep, as paths: `checks[].locations[].id`. */
function keysOf(value: unknown, path = ''): string[] {
  if (Array.isArray(value)) return [...new Set(value.flatMap((v) => keysOf(v, `${path}[]`)))];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => [`${path}.${k}`, ...keysOf(v, `${path}.${k}`)]);
}

const ALWAYS = [
  '.checkId',
  '.checkName',
  '.checkType',
  '.status',
  '.availability',
  '.availability.percentage',
  '.availability.period',
  '.performance',
  '.performance.averageResponseTime',
  '.performance.p95ResponseTime',
  '.performance.trend',
  '.lastExecution',
  '.lastExecution.timestamp',
  '.lastExecution.status',
  '.lastExecution.responseTime',
  '.locations',
  '[].id',
  '[].name',
  '[].status',
].map((k) => (k.startsWith('[]') ? `.locations${k}` : k));

describe('GET /v1/public/dashboards/{slug}', () => {
  it('shows exactly the public fields, with the incident and recent runs when the dashboard shows them', async () => {
    const { text } = await read('shown');
    const check = JSON.parse(text).data.checks[0];
    expect(check.status).toBe('failing');
    expect(new Set(keysOf(check))).toEqual(
      new Set([
        ...ALWAYS,
        '.currentIncident',
        '.currentIncident.id',
        '.currentIncident.severity',
        '.currentIncident.startedAt',
        '.currentIncident.title',
        '.recentResults',
        '.recentResults[].startedAt',
        '.recentResults[].status',
        '.recentResults[].responseTime',
      ]),
    );
    expect(check.currentIncident.title).toBe('Check 0002: outage');
    expect(check.recentResults).toHaveLength(10);
    expect(check.recentResults[0]).toMatchObject({ status: 'failed', responseTime: 10 });
    expect(text).not.toContain('10.20.30.40');
    expect(text).not.toContain('ECONNREFUSED');
    expect(PublicDashboardSchema.parse(JSON.parse(text)).data.checks).toHaveLength(1);
  });

  it('sends the dashboard without its tags, groups and custom domain (the fields stay, empty)', async () => {
    const { text } = await read('shown');
    const { dashboard } = PublicDashboardSchema.parse(JSON.parse(text)).data;
    expect(dashboard).toMatchObject({ tags: [], checkGroupIds: [], customDomain: null, checkIds: ['c2'] });
    expect(text).not.toContain('internal-team');
    expect(text).not.toContain('status.example');
    const grouped = PublicDashboardSchema.parse(JSON.parse((await read('grouped')).text)).data;
    expect(grouped.dashboard.checkGroupIds).toEqual([]);
    expect(grouped.checks.length).toBeGreaterThan(1);
  });

  it('leaves the incident and the runs out when the dashboard hides them', async () => {
    const { text } = await read('hidden');
    const check = JSON.parse(text).data.checks[0];
    expect(new Set(keysOf(check))).toEqual(new Set(ALWAYS));
    expect(text).not.toContain('10.20.30.40');
  });

  // Its answer is kept a second per URL (rate-limits.ts): `?r=<random>` built one for each stranger.
  it('refuses a query parameter, which it takes none of', async () => {
    const res = await fetch(`${svc.url}/v1/public/dashboards/shown?r=${randomUUID()}`);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toBe(
      'invalid query: r: is no parameter of this route (it takes none)',
    );
  });

  it('carries an ETag and answers 304 to it', async () => {
    const { res } = await read('shown');
    const etag = res.headers.get('etag');
    expect(etag).toMatch(/^"/);
    const again = await fetch(`${svc.url}/v1/public/dashboards/shown`, {
      headers: { 'if-none-match': etag! },
    });
    expect(again.status).toBe(304);
  });
});
