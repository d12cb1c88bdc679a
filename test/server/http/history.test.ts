// GET /v1/check-history/{checkId} (issue 34) over real HTTP: the roll-ups of a
// check's runs by UTC day or hour, kept past the raw results' retention.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../../src/api/client.js';
import { CheckHistoryListSchema, CheckStatusListSchema } from '../../../src/api/schemas/index.js';
import {
  OTHER_ACCOUNT,
  OTHER_KEY,
  startTestService,
  testConfig,
  TEST_ACCOUNT,
  TEST_KEY,
  type TestService,
} from '../../helpers/service.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;
// 13:30 UTC: today's bucket is part of a day.
const NOW = Date.parse('2026-11-27T13:30:00.000Z');
const TODAY = Date.parse('2026-11-27T00:00:00.000Z');

let svc: TestService | undefined;
afterEach(async () => {
  await svc?.close();
  svc = undefined;
});

const get = (s: TestService, path: string, key = TEST_KEY, account = TEST_ACCOUNT) =>
  fetch(`${s.url}${path}`, { headers: { authorization: `Bearer ${key}`, 'x-service-account': account } });

describe('GET /v1/check-history/{checkId}', () => {
  it('answers a bucket per UTC day with runs, failures, availability and response times', async () => {
    const s = (svc = await startTestService({ now: () => NOW }));
    // Three days ago: 4 runs at eu-west (one failed); today: 2 at us-east.
    await s.seed('c1', ['success', 'failed', 'success', 'success'], {
      endAt: TODAY - 3 * DAY + 10 * HOUR,
      responseTime: 200,
    });
    await s.seed('c1', ['success', 'success'], { endAt: NOW - 1000, location: 'us-east', responseTime: 40 });
    const client = createClient({ baseUrl: s.url, apiKey: TEST_KEY, accountId: TEST_ACCOUNT });
    try {
      const list = await client.checkHistory('c1', { period: '30d' });
      expect(list.meta).toMatchObject({ checkId: 'c1', period: '30d', granularity: 'day' });
      expect(list.meta.from).toBe(new Date(TODAY - 29 * DAY).toISOString());
      expect(list.meta.to).toBe(new Date(NOW).toISOString());
      expect(list.data).toHaveLength(30);
      expect(list.data.at(-1)).toEqual({
        start: new Date(TODAY).toISOString(),
        locationId: null,
        runs: 2,
        failures: 0,
        availability: 100,
        averageResponseTime: 40,
        p95ResponseTime: expect.closeTo(40, -1) as number,
      });
      expect(list.data.at(-4)).toMatchObject({
        runs: 4,
        failures: 1,
        availability: 75,
        averageResponseTime: 200,
      });
      const empty = list.data.filter((b) => b.runs === 0);
      expect(empty).toHaveLength(28);
      expect(empty[0]).toMatchObject({
        availability: null,
        averageResponseTime: null,
        p95ResponseTime: null,
      });

      const eu = await client.checkHistory('c1', { period: '7d', location: 'eu-west' });
      expect(eu.data).toHaveLength(7);
      expect(eu.data.map((b) => b.runs)).toEqual([0, 0, 0, 4, 0, 0, 0]);
      expect(eu.data.every((b) => b.locationId === 'eu-west')).toBe(true);
      expect((await client.checkHistory('c1', { period: '90d' })).data).toHaveLength(90);

      const hours = await client.checkHistory('c1', { period: '7d', granularity: 'hour' });
      expect(hours.data).toHaveLength(7 * 24);
      expect(hours.data.at(-1)).toMatchObject({ start: '2026-11-27T13:00:00.000Z', runs: 2 });
    } finally {
      await client.close();
    }
  });

  it('keeps the days whose raw results retention has pruned', async () => {
    const dbPath = join(mkdtempSync(join(tmpdir(), 'checkwall-')), 'history.db');
    const config = { ...testConfig(), retentionDays: 7 };
    const first = await startTestService({ dbPath, config, now: () => NOW });
    await first.seed('c1', ['success', 'failed'], { endAt: NOW - 20 * DAY });
    await first.close();
    // Opening prunes: the results are past 7 days, their history is not.
    const s = (svc = await startTestService({ dbPath, config, now: () => NOW }));
    const results = await (await get(s, `/v1/check-results/c1?from=2026-01-01`)).json();
    expect(results).toMatchObject({ meta: { totalItems: 0 } });
    const res = await get(s, '/v1/check-history/c1?period=30d');
    expect(res.status).toBe(200);
    const list = CheckHistoryListSchema.parse(await res.json());
    expect(list.data.find((b) => b.runs > 0)).toMatchObject({
      start: new Date(TODAY - 20 * DAY).toISOString(),
      runs: 2,
      failures: 1,
      availability: 50,
    });
  });

  it('refuses hours beyond 7 days, an unknown check or location, and other credentials, with a clear message', async () => {
    const s = (svc = await startTestService({ now: () => NOW }));
    const hourly = await get(s, '/v1/check-history/c1?period=30d&granularity=hour');
    expect(hourly.status).toBe(400);
    expect(await hourly.json()).toMatchObject({
      statusCode: 400,
      message: expect.stringContaining('hourly history is kept for 7 days only') as string,
    });
    const period = await get(s, '/v1/check-history/c1?period=24h');
    expect(period.status).toBe(400);
    expect(await period.json()).toMatchObject({ message: expect.stringContaining('period') as string });
    expect((await get(s, '/v1/check-history/nope')).status).toBe(404);
    const location = await get(s, '/v1/check-history/c1?location=mars');
    expect(location.status).toBe(400);
    expect(await location.json()).toMatchObject({
      message: 'check "c1" does not run at location "mars"',
      details: [{ path: 'location', message: 'check "c1" does not run there' }],
    });
    expect((await fetch(`${s.url}/v1/check-history/c1`)).status).toBe(401);
    // Another account's key sees its own checks only.
    expect((await get(s, '/v1/check-history/c1', OTHER_KEY, OTHER_ACCOUNT)).status).toBe(404);
  });
});

describe('availability for period=30d', () => {
  const status30d = async (s: TestService) => {
    const res = await get(s, '/v1/check-statuses?period=30d&limit=100');
    const list = CheckStatusListSchema.parse(await res.json());
    return list.data.find((c) => c.checkId === 'c1')!;
  };

  it('is the same figure from the roll-ups once retention has pruned the raw results', async () => {
    const dbPath = join(mkdtempSync(join(tmpdir(), 'checkwall-')), 'availability.db');
    const seeded = await startTestService({ dbPath, now: () => NOW });
    await seeded.seed('c1', ['success', 'failed', 'failed', 'success'], {
      endAt: NOW - 20 * DAY,
      responseTime: 300,
    });
    await seeded.seed('c1', ['success', 'success'], { endAt: NOW - HOUR, responseTime: 100 });
    // Every result is there (retentionDays 30): the figures as read from them.
    const before = await status30d(seeded);
    expect(before.availability).toEqual({ percentage: 66.667, period: '30d' });
    expect(before.performance.averageResponseTime).toBeCloseTo((4 * 300 + 2 * 100) / 6, 2);
    await seeded.close();

    // Kept 7 days: the 20-day-old runs are pruned at start, and counted from the daily roll-ups.
    const config = { ...testConfig(), retentionDays: 7 };
    const s = (svc = await startTestService({ dbPath, config, now: () => NOW }));
    const results = await (await get(s, '/v1/check-results/c1?from=2026-01-01')).json();
    expect(results).toMatchObject({ meta: { totalItems: 2 } });
    const after = await status30d(s);
    expect(after.availability).toEqual(before.availability);
    expect(after.performance.averageResponseTime).toBe(before.performance.averageResponseTime);
    // The p95 is the roll-ups' estimate (history.ts): 300 ms falls in the bin of 256 to 362 ms.
    expect(after.performance.p95ResponseTime).toBe(304);
  });
});
