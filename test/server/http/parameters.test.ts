// The query parameters of spec 4.1 to 4.4 that endpoints.test.ts leaves out:
// time windows and what meta.timeframe reports, every sort, paging past the
// end, the summary's figures, the statuses' period; and more bad values.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AlertChannelListSchema,
  ApiErrorBodySchema,
  CheckResultListSchema,
  CheckStatusListSchema,
  DashboardListSchema,
} from '../../../src/api/schemas/index.js';
import { call, post } from '../../helpers/http.js';
import { startTestService, type TestService } from '../../helpers/service.js';

const DAY = 86_400_000;
let svc: TestService;
let now: number;

beforeAll(async () => {
  svc = await startTestService({ checks: 6, maxAlertChannels: 20 });
  now = Date.now();
  // c1: 40 runs 30 s apart, response times 100..139, every 10th failed.
  await svc.seed(
    'c1',
    Array.from({ length: 40 }, (_, i) => (i % 10 === 9 ? 'failed' : 'success')),
    { spacingMs: 30_000, endAt: now - 60_000 },
  );
  // c2: failing three days ago, passing now: availability depends on the period.
  await svc.seed('c2', Array<'failed'>(20).fill('failed'), { endAt: now - 3 * DAY, spacingMs: 60_000 });
  await svc.seed('c2', Array<'success'>(20).fill('success'), { endAt: now - 5_000, spacingMs: 1_000 });
  // c3 ran most recently, then c2, c4 and c1; c5 and c6 never ran.
  await svc.seed('c4', ['success'], { endAt: now - 20_000 });
  await svc.seed('c3', ['success'], { endAt: now - 2_000 });
  for (let i = 0; i < 12; i++) {
    await post(svc, '/v1/alert-channels', {
      type: 'EMAIL',
      name: `ch${i}`,
      config: { address: `c${i}@example.com` },
    });
  }
});
afterAll(() => svc.close());

const get = (path: string) => call(svc, 'GET', path);
const results = async (q: string) =>
  CheckResultListSchema.parse((await get(`/v1/check-results/c1?${q}`)).body);
const statuses = async (q: string) =>
  CheckStatusListSchema.parse((await get(`/v1/check-statuses?${q}`)).body);

describe('GET /v1/check-results/{checkId}', () => {
  it('pages with 10 by default, up to 100, and past the end is an empty page', async () => {
    expect((await results('')).data).toHaveLength(10);
    expect((await results('limit=100')).data).toHaveLength(40);
    const past = await results('page=9');
    expect(past.data).toEqual([]);
    expect(past.meta).toMatchObject({ currentPage: 9, totalPages: 4, totalItems: 40, hasMore: false });
    expect((await results('page=4')).meta.hasMore).toBe(false);
    expect((await results('page=3')).meta.hasMore).toBe(true);
  });

  it('sorts by startedAt, duration and responseTime, each way', async () => {
    const starts = (await results('sortBy=startedAt&sortOrder=asc&limit=100')).data.map((r) =>
      Date.parse(r.startedAt),
    );
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    const durations = (await results('sortBy=duration&sortOrder=desc&limit=5')).data.map((r) => r.duration);
    expect(durations).toEqual([139, 138, 137, 136, 135]);
    const fastest = (await results('sortBy=responseTime&sortOrder=asc&limit=3')).data;
    expect(fastest.map((r) => r.response?.responseTime)).toEqual([100, 101, 102]);
  });

  it('reports the window it applied: default, period, from only, to only, a date-only to', async () => {
    const span = (m: { timeframe: { from: string; to: string } }) =>
      Date.parse(m.timeframe.to) - Date.parse(m.timeframe.from);
    expect(span((await results('')).meta)).toBe(DAY);
    expect(span((await results('period=6h')).meta)).toBe(6 * 3_600_000);
    expect(span((await results('period=7d')).meta)).toBe(7 * DAY);
    // Between two runs (they are 30 s apart), so no run sits on the boundary.
    const from = new Date(now - 10 * 60_000 + 15_000).toISOString();
    const fromOnly = await results(`from=${from}`);
    expect(fromOnly.meta.timeframe.from).toBe(from);
    expect(Date.parse(fromOnly.meta.timeframe.to)).toBeGreaterThanOrEqual(now);
    expect(fromOnly.meta.totalItems).toBe(18);
    const to = from;
    const toOnly = await results(`to=${to}`);
    expect(toOnly.meta.timeframe.to).toBe(to);
    expect(span(toOnly.meta)).toBe(DAY);
    expect(toOnly.meta.totalItems + fromOnly.meta.totalItems).toBe(40);
    const day = new Date(now).toISOString().slice(0, 10);
    const wholeDay = await results(`from=${day}&to=${day}`);
    expect(wholeDay.meta.timeframe).toEqual({
      from: `${day}T00:00:00.000Z`,
      to: `${day}T23:59:59.999Z`,
    });
    // A date-only to is the end of its day for the from-after-to rule too.
    const fromNoon = await results(`from=${day}T12:00:00.000Z&to=${day}`);
    expect(fromNoon.meta.timeframe).toEqual({ from: `${day}T12:00:00.000Z`, to: `${day}T23:59:59.999Z` });
    const sent = await get(`/v1/alert-notifications?from=${day}T12:00:00.000Z&to=${day}`);
    expect(sent.status).toBe(200);
  });

  it('filters by trigger and sums up the filtered window', async () => {
    expect((await results('triggeredBy=schedule')).meta.totalItems).toBe(40);
    expect((await results('triggeredBy=api')).meta.totalItems).toBe(0);
    expect((await results('')).meta.summary).toEqual({
      totalRuns: 40,
      successfulRuns: 36,
      failedRuns: 4,
      successRate: 90,
      averageResponseTime: 119.5,
      p95ResponseTime: 137, // nearest rank: the 38th of 40 (100..139)
      p99ResponseTime: 139,
    });
    expect((await results('status=failed')).meta.summary).toMatchObject({
      totalRuns: 4,
      successRate: 0,
      averageResponseTime: 124, // 109, 119, 129, 139
    });
  });
});

describe('GET /v1/check-statuses', () => {
  it('takes period as the availability window', async () => {
    const c2 = async (q: string) => (await statuses(`${q}&limit=100`)).data.find((s) => s.checkId === 'c2')!;
    expect((await c2('')).availability).toEqual({ percentage: 100, period: '24h' });
    expect((await c2('period=7d')).availability).toEqual({ percentage: 50, period: '7d' });
    expect((await c2('period=1h')).availability.period).toBe('1h');
    expect((await statuses('period=7d&availabilityMax=60')).data.map((s) => s.checkId)).toEqual(['c2']);
  });

  it('sorts by the most recent execution first by default, never-run checks last', async () => {
    const ids = (await statuses('limit=100')).data.map((s) => s.checkId);
    expect(ids.slice(0, 4)).toEqual(['c3', 'c2', 'c4', 'c1']);
    expect(new Set(ids.slice(4))).toEqual(new Set(['c5', 'c6']));
    const asc = (await statuses('sortBy=lastExecution&sortOrder=asc&limit=100')).data.map((s) => s.checkId);
    expect(asc.slice(0, 4)).toEqual(['c1', 'c4', 'c2', 'c3']);
    expect((await statuses('sortBy=name&sortOrder=desc&limit=2')).data.map((s) => s.checkId)).toEqual([
      'c6',
      'c5',
    ]);
  });

  it('keeps the summary account-wide whatever the filter', async () => {
    const filtered = await statuses('status=unknown&limit=100');
    expect(filtered.data.map((s) => s.checkId).sort()).toEqual(['c5', 'c6']);
    expect(filtered.meta.totalItems).toBe(2);
    expect(filtered.meta.summary).toMatchObject({ totalChecks: 6 });
    expect(Object.keys(filtered.meta.summary!).sort()).toEqual(
      [
        'activeAlerts',
        'activeIncidents',
        'averageAvailability',
        'degraded',
        'inMaintenance',
        'failing',
        'passing',
        'totalChecks',
      ].sort(),
    );
    expect((await statuses('checkType=api&limit=100')).meta.totalItems).toBe(5);
    expect((await statuses('tags=even&limit=100')).data.map((s) => s.checkId).sort()).toEqual([
      'c1',
      'c3',
      'c5',
    ]);
  });
});

describe('GET /v1/alert-channels and /v1/dashboards', () => {
  it('page the alert channels 10 at a time by default, oldest first', async () => {
    const first = AlertChannelListSchema.parse((await get('/v1/alert-channels')).body);
    expect(first.data).toHaveLength(10);
    expect(first.meta).toEqual({ currentPage: 1, totalPages: 2, totalItems: 12, limit: 10 });
    const second = AlertChannelListSchema.parse((await get('/v1/alert-channels?page=2&limit=5')).body);
    expect(second.data.map((c) => c.name)).toEqual(['ch5', 'ch6', 'ch7', 'ch8', 'ch9']);
  });

  it('filter dashboards by any of several tags and by privacy', async () => {
    const ids = async (q: string) =>
      DashboardListSchema.parse((await get(`/v1/dashboards?${q}`)).body).data.map((d) => d.id);
    expect(await ids('tags=ops,public')).toEqual(['ops', 'public']);
    expect(await ids('isPrivate=true')).toEqual(['ops']);
    expect(await ids('tags=none')).toEqual([]);
  });
});

describe('a boolean parameter that is not one says what it wants', () => {
  it.each([
    ['/v1/check-results/c1?includeSummary=no', 'includeSummary'],
    ['/v1/check-statuses?hasIncident=yes', 'hasIncident'],
    ['/v1/check-statuses?includeSummary=1', 'includeSummary'],
    ['/v1/dashboards?isPrivate=maybe', 'isPrivate'],
    ['/v1/analytics/metrics/api?includeThresholds=TRUE', 'includeThresholds'],
  ])('%s', async (path, name) => {
    const { status, body } = await get(path);
    expect(status).toBe(400);
    expect(ApiErrorBodySchema.parse(body).details).toEqual([
      { path: name, message: 'must be true or false' },
    ]);
  });
});

describe('a number past its limit names the limit once', () => {
  it.each([
    ['/v1/check-statuses?page=99999999999999999999', 'page', 'Too big: expected number to be <=1000000'],
    ['/v1/check-results/c1?limit=99999999999999999999', 'limit', 'Too big: expected number to be <=100'],
  ])('%s', async (path, name, message) => {
    const { status, body } = await get(path);
    expect(status).toBe(400);
    expect(ApiErrorBodySchema.parse(body).details).toEqual([{ path: name, message }]);
  });
});

describe('a range whose least is above its most is refused, as from after to is', () => {
  it.each([
    ['/v1/check-results/c1?responseTimeMin=120&responseTimeMax=110', 'responseTimeMin', 'responseTimeMax'],
    ['/v1/check-statuses?availabilityMin=90&availabilityMax=10', 'availabilityMin', 'availabilityMax'],
    ['/v1/check-statuses?responseTimeMin=500&responseTimeMax=100.5', 'responseTimeMin', 'responseTimeMax'],
  ])('%s', async (path, min, max) => {
    const { status, body } = await get(path);
    expect(status).toBe(400);
    expect(ApiErrorBodySchema.parse(body).details).toEqual([
      { path: min, message: `must not be above ${max}` },
    ]);
  });

  it('takes a range of one value', async () => {
    const page = await results('responseTimeMin=110&responseTimeMax=110&period=24h');
    expect(page.data.map((r) => r.response?.responseTime)).toEqual([110]);
  });
});

describe('more bad values: 400 with the error body', () => {
  it.each([
    '/v1/check-results/c1?limit=abc',
    '/v1/check-results/c1?limit=',
    '/v1/check-results/c1?page=1.5',
    '/v1/check-results/c1?page=0',
    '/v1/check-results/c1?responseTimeMax=fast',
    '/v1/check-results/c1?to=tomorrow',
    '/v1/check-results/c1?from=2026-01-01T00:00:00',
    '/v1/check-results/c1?from=2026-02-30',
    '/v1/check-results/c1?from=2026-03-02&to=2026-03-01',
    '/v1/check-results/c1?status=success&status=failed',
    '/v1/check-results/c1?location=',
    '/v1/check-statuses?availabilityMax=-1',
    '/v1/check-statuses?responseTimeMin=slow',
    '/v1/check-statuses?sortOrder=sideways',
    '/v1/check-statuses?includeSummary=1',
    '/v1/check-statuses?page=0',
    '/v1/check-statuses?group=',
    '/v1/check-statuses?tags=',
    '/v1/dashboards?tags=,',
    '/v1/dashboards?limit=0',
    '/v1/dashboards?page=abc',
    '/v1/alert-channels?limit=101',
    '/v1/analytics/metrics/api?includeThresholds=maybe',
    '/v1/analytics/metrics/api?includeExamples=2',
    '/v1/analytics/metrics/api?includeCalculations=no',
    '/v1/analytics/metrics/api?category=',
  ])('%s', async (path) => {
    const { status, body } = await get(path);
    expect(status).toBe(400);
    const error = ApiErrorBodySchema.parse(body);
    expect(error.error).toBe('Bad Request');
    expect(error.details?.length).toBeGreaterThan(0);
  });
});

describe('a parameter a route does not take is refused, naming those it takes', () => {
  it.each([
    ['/v1/check-statuses?staus=failing', 'staus', 'status'],
    ['/v1/check-results/c1?stauts=failed', 'stauts', 'status'],
    ['/v1/dashboards?tag=shop', 'tag', 'tags'],
    ['/v1/alert-channels?sort=name', 'sort', 'limit'],
    ['/v1/check-history/c1?locaton=eu-west', 'locaton', 'location'],
    ['/v1/alert-notifications?checkid=c1', 'checkid', 'checkId'],
    ['/v1/analytics/metrics/api?categroy=response_time', 'categroy', 'category'],
  ])('%s', async (path, typed, meant) => {
    const { status, body } = await get(path);
    expect(status).toBe(400);
    const error = ApiErrorBodySchema.parse(body);
    expect(error.details).toHaveLength(1);
    expect(error.details![0]!.path).toBe(typed);
    expect(error.details![0]!.message).toMatch(
      new RegExp(`^is no parameter of this route \\(it takes .*\\b${meant}\\b`),
    );
  });
});

it('a metric category the service does not have is refused, naming those it has', async () => {
  const { status, body } = await get('/v1/analytics/metrics/api?category=responsetime');
  expect(status).toBe(400);
  const error = ApiErrorBodySchema.parse(body);
  expect(error.details).toEqual([
    expect.objectContaining({
      path: 'category',
      message: expect.stringMatching(/must be one of response_time, /),
    }),
  ]);
});
