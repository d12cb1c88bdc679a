import { describe, expect, it } from 'vitest';
import { statusShares, summarize } from '../../src/domain/summary.js';
import { sampleStatus } from '../helpers/samples.js';

describe('summaries and shares', () => {
  it('counts statuses, unknown as the rest, percentages of the total', () => {
    const s = summarize([
      sampleStatus('a', { status: 'failing', alerts: { active: 2, acknowledged: 0, total24h: 3 } }),
      sampleStatus('b', { status: 'passing', availability: { percentage: 90, period: '24h' } }),
      sampleStatus('c', { status: 'unknown', availability: { percentage: null, period: '24h' } }),
      sampleStatus('d', { status: 'degraded' }),
    ]);
    expect(s).toMatchObject({ totalChecks: 4, passing: 1, failing: 1, degraded: 1, activeAlerts: 2 });
    expect(s.averageAvailability).toBeCloseTo((99.5 + 90 + 99.5) / 3, 3);
    expect(statusShares(s).map((x) => [x.status, x.count, x.percent])).toEqual([
      ['failing', 1, 25],
      ['degraded', 1, 25],
      ['unknown', 1, 25],
      ['passing', 1, 25],
    ]);
    expect(statusShares(summarize([])).every((x) => x.percent === null)).toBe(true);
  });
});
