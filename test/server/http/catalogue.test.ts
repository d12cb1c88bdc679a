// GET /v1/analytics/metrics/{checkType} against the tables of spec 2.5: every
// metric named there, for the types it applies to, with the units, precision,
// ranges and thresholds the spec states.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CHECK_TYPES,
  METRIC_GROUPS,
  MetricCatalogueSchema,
  type MetricDefinition,
} from '../../../src/api/schemas/index.js';
import { startTestService, TEST_ACCOUNT, TEST_KEY, type TestService } from '../../helpers/service.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService({ checks: 1 });
});
afterAll(() => svc.close());

async function catalogue(type: string, query = '') {
  const res = await fetch(`${svc.url}/v1/analytics/metrics/${type}?${query}`, {
    headers: { authorization: `Bearer ${TEST_KEY}`, 'x-service-account': TEST_ACCOUNT },
  });
  expect(res.status).toBe(200);
  return MetricCatalogueSchema.parse(await res.json());
}
const all = (c: Awaited<ReturnType<typeof catalogue>>): MetricDefinition[] =>
  METRIC_GROUPS.flatMap((g) => c.data[g]);

const RESPONSE = [
  'averageResponseTime',
  'medianResponseTime',
  'p95ResponseTime',
  'p99ResponseTime',
  'minResponseTime',
  'maxResponseTime',
];
const SUCCESS = ['successRate', 'errorRate', 'totalRequests', 'successfulRequests', 'failedRequests'];
const BROWSER = [
  'firstContentfulPaint',
  'largestContentfulPaint',
  'cumulativeLayoutShift',
  'firstInputDelay',
  'timeToInteractive',
];
const HEARTBEAT = [
  'uptimePercentage',
  'missedHeartbeats',
  'averageHeartbeatInterval',
  'longestGap',
  'heartbeatConsistency',
  'averageRunDuration',
  'longestRunDuration',
];

describe('metric catalogue', () => {
  it('has certificateDaysRemaining in its own group, in days, good above 30 and poor below 14 (issue 35)', async () => {
    const c = await catalogue('url', 'includeThresholds=true');
    expect(c.data.certificateMetrics).toEqual([
      expect.objectContaining({
        name: 'certificateDaysRemaining',
        unit: 'days',
        dataType: 'integer',
        availableFor: ['api', 'url', 'browser', 'multistep'],
        goodThreshold: 30,
        needsImprovementThreshold: 14,
      }),
    ]);
    expect((await catalogue('tcp')).data.certificateMetrics).toEqual([]);
  });

  it.each(CHECK_TYPES.map((t) => [t]))(
    '%s has exactly the metrics the spec makes available to it',
    async (type) => {
      const names = all(await catalogue(type)).map((m) => m.name);
      const expected = [
        ...RESPONSE,
        ...SUCCESS,
        ...(type === 'browser' || type === 'multistep' ? BROWSER : []),
        ...(type === 'heartbeat' ? HEARTBEAT : []),
        ...(['api', 'url', 'browser', 'multistep'].includes(type) ? ['certificateDaysRemaining'] : []),
      ];
      expect(names.sort()).toEqual(expected.sort());
      const c = await catalogue(type);
      expect(c.meta.totalMetrics).toBe(expected.length);
      expect(c.meta.checkTypes).toEqual(['api', 'browser', 'heartbeat', 'tcp', 'multistep', 'url']);
      expect(c.meta.categories).toEqual(
        expect.arrayContaining([
          'response_time',
          'success_rate',
          'volume',
          'core_web_vitals',
          'heartbeat',
          'performance',
        ]),
      );
    },
  );

  it('carries the units, precision, ranges and thresholds the spec states', async () => {
    const byName = new Map(
      [...all(await catalogue('browser')), ...all(await catalogue('heartbeat'))].map((m) => [m.name, m]),
    );
    for (const name of RESPONSE)
      expect(byName.get(name)).toMatchObject({ unit: 'milliseconds', precision: 2 });
    for (const name of ['successRate', 'errorRate'])
      expect(byName.get(name)).toMatchObject({ unit: 'percentage', range: { min: 0, max: 100 } });
    expect(byName.get('firstContentfulPaint')).toMatchObject({
      unit: 'seconds',
      precision: 3,
      goodThreshold: 1.8,
      needsImprovementThreshold: 3,
      category: 'core_web_vitals',
    });
    expect(byName.get('largestContentfulPaint')).toMatchObject({
      unit: 'seconds',
      precision: 3,
      goodThreshold: 2.5,
      needsImprovementThreshold: 4,
    });
    expect(byName.get('cumulativeLayoutShift')).toMatchObject({
      unit: 'score',
      precision: 4,
      goodThreshold: 0.1,
      needsImprovementThreshold: 0.25,
    });
    expect(byName.get('firstInputDelay')).toMatchObject({
      unit: 'milliseconds',
      goodThreshold: 100,
      needsImprovementThreshold: 300,
    });
    expect(byName.get('uptimePercentage')).toMatchObject({ unit: 'percentage', precision: 3 });
    expect(byName.get('missedHeartbeats')).toMatchObject({ unit: 'count', dataType: 'integer' });
    expect(byName.get('p95ResponseTime')?.calculationMethod).toBe('percentile_95');
    expect(byName.get('averageResponseTime')?.calculationMethod).toBe('arithmetic_mean');
    for (const m of byName.values()) expect(['number', 'integer']).toContain(m.dataType);
  });

  it('filters by category; one no metric of the type is in is an empty catalogue', async () => {
    const rt = await catalogue('api', 'category=response_time');
    expect(
      all(rt)
        .map((m) => m.name)
        .sort(),
    ).toEqual([...RESPONSE].sort());
    expect(all(rt).every((m) => m.category === 'response_time')).toBe(true);
    const none = await catalogue('tcp', 'category=core_web_vitals');
    expect(none.meta.totalMetrics).toBe(0);
    expect(all(none)).toEqual([]);
  });

  it('summary format keeps the identity of each metric and drops the detail', async () => {
    const summary = all(await catalogue('browser', 'format=summary&includeExamples=true'));
    for (const m of summary) {
      expect(Object.keys(m).sort()).toEqual(
        [
          'availableFor',
          'calculationMethod',
          'dataType',
          'description',
          'displayName',
          'name',
          'unit',
        ].sort(),
      );
    }
    const detailed = all(await catalogue('browser', 'includeThresholds=false&includeCalculations=false'));
    expect(detailed.some((m) => 'goodThreshold' in m || 'calculation' in m)).toBe(false);
    expect(detailed.every((m) => m.precision !== undefined && m.range !== undefined)).toBe(true);
  });
});
