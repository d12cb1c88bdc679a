// Every endpoint over real HTTP against the service on 127.0.0.1:0, with
// results seeded through the service's own record path.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiErrorBodySchema,
  CheckResultListSchema,
  CheckStatusListSchema,
  DashboardListSchema,
  MetricCatalogueSchema,
  PublicDashboardSchema,
} from '../../../src/api/schemas/index.js';
import {
  OTHER_KEY,
  startTestService,
  TEST_ACCOUNT,
  TEST_KEY,
  type TestService,
} from '../../helpers/service.js';
import { AUTH, call } from '../../helpers/http.js';

let svc: TestService;
const auth = AUTH;
const get = (path: string, headers: Record<string, string> = auth) =>
  call(svc, 'GET', path, undefined, headers);

beforeAll(async () => {
  svc = await startTestService({ checks: 25 });
  await svc.seed('c1', ['success', 'failed', 'failed', 'failed'], { location: 'eu-west' });
  await svc.seed('c1', ['failed', 'failed'], { location: 'us-east' });
  await svc.seed('c2', ['success', 'success', 'success'], { location: 'eu-west', responseTime: 50 });
  await svc.seed('c2', ['success', 'success', 'success'], { location: 'us-east', responseTime: 70 });
  // 90 % available with a recent failure: degraded.
  await svc.seed('c3', [...Array<'success'>(8).fill('success'), 'failed', 'success'], {
    location: 'eu-west',
    responseTime: 300,
  });
  await svc.seed(
    'c4',
    Array.from({ length: 40 }, (_, i) => (i % 10 === 0 ? 'failed' : 'success')),
    { spacingMs: 30_000 },
  );
});
afterAll(() => svc.close());

describe('GET /v1/check-statuses', () => {
  it('answers every check with the spec shape and the account summary', async () => {
    const { status, body } = await get('/v1/check-statuses?limit=100');
    expect(status).toBe(200);
    const list = CheckStatusListSchema.parse(body);
    expect(list.data).toHaveLength(25);
    expect(list.meta).toMatchObject({ currentPage: 1, totalPages: 1, totalItems: 25, limit: 100 });
    expect(list.meta.summary).toMatchObject({ totalChecks: 25, failing: 1, activeIncidents: 1 });
    const c1 = list.data.find((s) => s.checkId === 'c1')!;
    expect(c1.status).toBe('failing');
    expect(c1.currentIncident?.severity).toBe('critical');
    expect(c1.alerts).toEqual({ active: 1, acknowledged: 0, total24h: 1 });
    expect(c1.locations.map((l) => l.status)).toEqual(['failing', 'failing']);
    expect(c1.lastExecution?.status).toBe('failed');
    expect(list.data.find((s) => s.checkId === 'c2')!.status).toBe('passing');
    expect(list.data.find((s) => s.checkId === 'c3')!.status).toBe('degraded');
    expect(list.data.find((s) => s.checkId === 'c9')!.status).toBe('unknown');
  });

  it('filters by status, type, group, tags, incident, availability, response time and trend', async () => {
    const ids = async (query: string) =>
      CheckStatusListSchema.parse((await get(`/v1/check-statuses?limit=100&${query}`)).body).data.map(
        (s) => s.checkId,
      );
    expect(await ids('status=failing')).toEqual(['c1']);
    expect(await ids('checkType=tcp&sortBy=name')).toEqual(['c5', 'c10', 'c15', 'c20', 'c25']);
    expect((await ids('group=edge')).sort()).toEqual(
      ['c1', 'c10', 'c13', 'c16', 'c19', 'c22', 'c25', 'c4', 'c7'].sort(),
    );
    expect((await ids('tags=odd,prod')).every((id) => Number(id.slice(1)) % 2 === 0)).toBe(true);
    expect(await ids('hasIncident=true')).toEqual(['c1']);
    expect(await ids('availabilityMin=99&sortBy=name')).toEqual(['c2']);
    expect(await ids('availabilityMax=50')).toEqual(['c1']);
    expect(await ids('responseTimeMin=200')).toEqual(['c3']);
    expect(await ids('responseTimeMax=80')).toEqual(['c2']);
    expect(await ids('location=us-east&status=passing')).toEqual(['c2']);
    expect((await ids('trend=stable')).length).toBe(25);
  });

  it('sorts and pages', async () => {
    const page = async (q: string) =>
      CheckStatusListSchema.parse((await get(`/v1/check-statuses?${q}`)).body);
    const byName = await page('sortBy=name&limit=10&page=3');
    expect(byName.meta).toMatchObject({ currentPage: 3, totalPages: 3, totalItems: 25 });
    expect(byName.data.map((s) => s.checkName)).toEqual([
      'Check 0021',
      'Check 0022',
      'Check 0023',
      'Check 0024',
      'Check 0025',
    ]);
    expect((await page('sortBy=status&limit=1')).data[0]!.checkId).toBe('c1');
    expect((await page('sortBy=responseTime&sortOrder=asc&limit=1')).data[0]!.checkId).toBe('c2');
    expect((await page('sortBy=availability&sortOrder=asc&limit=1')).data[0]!.checkId).toBe('c1');
    expect((await page('limit=5')).data).toHaveLength(5);
    expect((await page('includeSummary=false')).meta.summary).toBeUndefined();
  });
});

describe('GET /v1/check-results/{checkId}', () => {
  it('pages the default 24 h window newest first with a summary', async () => {
    const { body } = await get('/v1/check-results/c4');
    const list = CheckResultListSchema.parse(body);
    expect(list.meta).toMatchObject({
      checkId: 'c4',
      currentPage: 1,
      totalPages: 4,
      totalItems: 40,
      limit: 10,
      hasMore: true,
    });
    expect(list.meta.summary).toMatchObject({
      totalRuns: 40,
      successfulRuns: 36,
      failedRuns: 4,
      successRate: 90,
    });
    const started = list.data.map((r) => Date.parse(r.startedAt));
    expect(started).toEqual([...started].sort((a, b) => b - a));
    expect(Date.parse(list.meta.timeframe.to) - Date.parse(list.meta.timeframe.from)).toBe(86_400_000);
  });

  it('filters by status, location, response time and period, and sorts by response time', async () => {
    const q = async (query: string) =>
      CheckResultListSchema.parse((await get(`/v1/check-results/c1?${query}`)).body);
    expect((await q('status=success')).data.map((r) => r.status)).toEqual(['success']);
    expect((await q('location=us-east')).meta.totalItems).toBe(2);
    expect((await q('triggeredBy=manual')).meta.totalItems).toBe(0);
    expect((await q('period=1h')).meta.totalItems).toBe(6);
    const c3 = CheckResultListSchema.parse(
      (await get('/v1/check-results/c3?sortBy=responseTime&sortOrder=asc')).body,
    );
    expect(c3.data.every((r) => r.response?.responseTime === 300)).toBe(true);
    const ranged = CheckResultListSchema.parse(
      (await get('/v1/check-results/c4?responseTimeMin=120&responseTimeMax=125')).body,
    );
    expect(ranged.data.map((r) => r.response!.responseTime).sort()).toEqual([120, 121, 122, 123, 124, 125]);
    const old = await q(
      `from=${new Date(Date.now() - 3 * 86_400_000).toISOString()}&to=${new Date(Date.now() - 86_400_000 * 2).toISOString()}`,
    );
    expect(old.meta.totalItems).toBe(0);
    expect((await q('includeSummary=false')).meta.summary).toBeUndefined();
  });

  it('answers 404 for an unknown check and for another account’s check', async () => {
    expect((await get('/v1/check-results/nope')).status).toBe(404);
    expect((await get('/v1/check-results/secret')).status).toBe(404);
  });
});

describe('bad input is a 400 with the error body, never a 5xx', () => {
  it.each([
    '/v1/check-results/c1?limit=101',
    '/v1/check-results/c1?limit=0',
    '/v1/check-results/c1?page=zero',
    '/v1/check-results/c1?period=2h',
    '/v1/check-results/c1?status=ok',
    '/v1/check-results/c1?triggeredBy=cron',
    '/v1/check-results/c1?responseTimeMin=-1',
    '/v1/check-results/c1?sortBy=name',
    '/v1/check-results/c1?sortOrder=up',
    '/v1/check-results/c1?includeSummary=yes',
    '/v1/check-results/c1?from=yesterday',
    '/v1/check-results/c1?period=1h&from=2026-01-01',
    '/v1/check-statuses?status=ok',
    '/v1/check-statuses?checkType=ftp',
    '/v1/check-statuses?availabilityMin=101',
    '/v1/check-statuses?hasIncident=maybe',
    '/v1/check-statuses?trend=up',
    '/v1/check-statuses?sortBy=color',
    '/v1/check-statuses?limit=1000',
    '/v1/check-statuses?period=90d',
    '/v1/dashboards?isPrivate=perhaps',
    '/v1/alert-channels?page=-1',
    '/v1/analytics/metrics/ping',
    '/v1/analytics/metrics/api?format=short',
  ])('%s', async (path) => {
    const { status, body } = await get(path);
    expect(status).toBe(400);
    const error = ApiErrorBodySchema.parse(body);
    expect(error).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expect(error.details?.length).toBeGreaterThan(0);
  });

  it('answers an unknown route with a 404 body', async () => {
    const { status, body } = await get('/v1/nothing-here');
    expect(status).toBe(404);
    expect(ApiErrorBodySchema.parse(body).statusCode).toBe(404);
  });

  it('answers a route asked with a method it does not take with a 405 naming those it does', async () => {
    const res = await fetch(`${svc.url}/v1/check-statuses?limit=5`, { method: 'DELETE', headers: auth });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
    expect(ApiErrorBodySchema.parse(await res.json())).toMatchObject({
      statusCode: 405,
      error: 'Method Not Allowed',
      message: '/v1/check-statuses takes GET, HEAD, not DELETE',
    });
    // A parameter's segment matches any value; a path no route has stays a 404.
    const pause = await call(svc, 'GET', '/v1/checks/anything/pause', undefined, auth);
    expect(pause.status).toBe(405);
    expect(pause.body).toMatchObject({ message: '/v1/checks/anything/pause takes POST, not GET' });
    expect((await call(svc, 'POST', '/v1/checks/anything/pause/more', {}, auth)).status).toBe(404);
  });
});

describe('authentication and isolation', () => {
  it('401 without or with a wrong key, 403 for another account’s key', async () => {
    expect((await get('/v1/check-statuses', {})).status).toBe(401);
    expect(
      (await get('/v1/check-statuses', { authorization: 'Bearer wrong', 'x-service-account': TEST_ACCOUNT }))
        .status,
    ).toBe(401);
    expect((await get('/v1/check-statuses', { authorization: `Bearer ${TEST_KEY}` })).status).toBe(401);
    const forbidden = await get('/v1/check-statuses', {
      authorization: `Bearer ${OTHER_KEY}`,
      'x-service-account': TEST_ACCOUNT,
    });
    expect(forbidden.status).toBe(403);
    expect(ApiErrorBodySchema.parse(forbidden.body).error).toBe('Forbidden');
  });

  it('shows each account only its own checks', async () => {
    const other = await get('/v1/check-statuses', {
      authorization: `Bearer ${OTHER_KEY}`,
      'x-service-account': '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
    });
    expect(CheckStatusListSchema.parse(other.body).data.map((s) => s.checkId)).toEqual(['secret']);
  });
});

describe('dashboards', () => {
  it('lists, filters by tag and privacy, and pages', async () => {
    const all = DashboardListSchema.parse((await get('/v1/dashboards')).body);
    expect(all.data.map((d) => d.id)).toEqual(['ops', 'public']);
    expect(
      DashboardListSchema.parse((await get('/v1/dashboards?isPrivate=false')).body).data.map((d) => d.id),
    ).toEqual(['public']);
    expect(
      DashboardListSchema.parse((await get('/v1/dashboards?tags=ops')).body).data.map((d) => d.id),
    ).toEqual(['ops']);
    expect(DashboardListSchema.parse((await get('/v1/dashboards?limit=1&page=2')).body).meta).toMatchObject({
      totalPages: 2,
      currentPage: 2,
    });
  });

  it('reads a public dashboard without credentials, never a private one', async () => {
    const pub = await get('/v1/public/dashboards/status', {});
    expect(pub.status).toBe(200);
    const parsed = PublicDashboardSchema.parse(pub.body);
    expect(parsed.data.dashboard.name).toBe('Public status');
    expect(parsed.data.checks.map((c) => c.checkId)).toEqual(['c2']);
    expect((await get('/v1/public/dashboards/ops', {})).status).toBe(404);
  });
});

describe('metric catalogue', () => {
  it('takes the type in either case and filters by category', async () => {
    const upper = MetricCatalogueSchema.parse((await get('/v1/analytics/metrics/BROWSER')).body);
    const lower = MetricCatalogueSchema.parse((await get('/v1/analytics/metrics/browser')).body);
    expect(upper).toEqual(lower);
    const cls = upper.data.browserSpecificMetrics.find((m) => m.name === 'cumulativeLayoutShift')!;
    expect(cls).toMatchObject({
      unit: 'score',
      precision: 4,
      goodThreshold: 0.1,
      needsImprovementThreshold: 0.25,
    });
    expect(upper.data.heartbeatSpecificMetrics).toEqual([]);
    const hb = MetricCatalogueSchema.parse((await get('/v1/analytics/metrics/heartbeat')).body);
    expect(hb.data.heartbeatSpecificMetrics.map((m) => m.name)).toContain('uptimePercentage');
    expect(hb.data.browserSpecificMetrics).toEqual([]);
    const vitals = MetricCatalogueSchema.parse(
      (await get('/v1/analytics/metrics/browser?category=core_web_vitals')).body,
    );
    expect(vitals.meta.totalMetrics).toBe(5);
    expect(vitals.data.responseTimeMetrics).toEqual([]);
  });

  it('changes its output with format and the include flags', async () => {
    const fetchCls = async (q: string) =>
      MetricCatalogueSchema.parse(
        (await get(`/v1/analytics/metrics/browser?${q}`)).body,
      ).data.browserSpecificMetrics.find((m) => m.name === 'cumulativeLayoutShift')!;
    expect((await fetchCls('includeThresholds=false')).goodThreshold).toBeUndefined();
    expect((await fetchCls('includeExamples=true')).examples?.length).toBeGreaterThan(0);
    expect((await fetchCls('')).examples).toBeUndefined();
    expect((await fetchCls('includeCalculations=false')).calculation).toBeUndefined();
    expect((await fetchCls('format=summary')).precision).toBeUndefined();
  });
});

describe('heartbeat pings', () => {
  it('records a ping for a known token without credentials, 404 for an unknown one', async () => {
    expect((await fetch(`${svc.url}/v1/heartbeats/unknown-token`, { method: 'POST' })).status).toBe(404);
  });
});
