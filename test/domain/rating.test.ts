// Ratings at every boundary of the spec's thresholds and guide bands.
import { describe, expect, it } from 'vitest';
import { rateAgainst, rateMetric, rateResponseTime, rateSuccessRate } from '../../src/domain/rating.js';
import { sparkline } from '../../src/domain/sparkline.js';
import { restOfRun, waterfall } from '../../src/domain/waterfall.js';

describe('thresholds (lower is better)', () => {
  it.each([
    ['CLS', 0.1, 0.25, 0.1, 'good'],
    ['CLS', 0.1, 0.25, 0.1001, 'needs-improvement'],
    ['CLS', 0.1, 0.25, 0.25, 'needs-improvement'],
    ['CLS', 0.1, 0.25, 0.2501, 'poor'],
    ['FCP', 1.8, 3.0, 1.8, 'good'],
    ['FCP', 1.8, 3.0, 1.81, 'needs-improvement'],
    ['FCP', 1.8, 3.0, 3.0, 'needs-improvement'],
    ['FCP', 1.8, 3.0, 3.01, 'poor'],
    ['LCP', 2.5, 4.0, 2.5, 'good'],
    ['LCP', 2.5, 4.0, 4.01, 'poor'],
    ['FID', 100, 300, 100, 'good'],
    ['FID', 100, 300, 101, 'needs-improvement'],
    ['FID', 100, 300, 301, 'poor'],
  ])('%s good %s NI %s: %s is %s', (_m, good, ni, value, expected) => {
    expect(rateAgainst(value, good, ni)).toBe(expected);
  });
});

describe('certificate days remaining (issue 35): good above 30, needs improvement 14 to 30, poor below 14', () => {
  const metric = {
    name: 'certificateDaysRemaining',
    unit: 'days',
    goodThreshold: 30,
    needsImprovementThreshold: 14,
  };
  it.each([
    [90, 'good'],
    [31, 'good'],
    [30, 'needs-improvement'],
    [14, 'needs-improvement'],
    [13, 'poor'],
    [0, 'poor'],
    [-2, 'poor'],
  ])('%s days is %s', (days, expected) => {
    expect(rateMetric(metric, days)).toBe(expected);
  });
});

describe('guide bands', () => {
  it.each([
    [0, 'excellent'],
    [199, 'excellent'],
    [200, 'good'],
    [500, 'good'],
    [501, 'fair'],
    [1000, 'fair'],
    [1001, 'poor'],
  ])('response time %s ms is %s', (ms, expected) => {
    expect(rateResponseTime(ms)).toBe(expected);
  });

  it.each([
    [100, 'excellent'],
    [99.9, 'excellent'],
    [99.89, 'good'],
    [99.0, 'good'],
    [98.99, 'fair'],
    [95.0, 'fair'],
    [94.99, 'poor'],
  ])('success rate %s%% is %s', (p, expected) => {
    expect(rateSuccessRate(p)).toBe(expected);
  });

  it('rates a metric by its thresholds first, then by the bands, and totals not at all', () => {
    expect(
      rateMetric(
        { name: 'cumulativeLayoutShift', unit: 'score', goodThreshold: 0.1, needsImprovementThreshold: 0.25 },
        0.3,
      ),
    ).toBe('poor');
    expect(
      rateMetric(
        { name: 'successRate', unit: 'percentage', goodThreshold: 99.9, needsImprovementThreshold: 99 },
        99.5,
      ),
    ).toBe('needs-improvement');
    expect(rateMetric({ name: 'p95ResponseTime', unit: 'milliseconds' }, 450)).toBe('good');
    expect(rateMetric({ name: 'uptimePercentage', unit: 'percentage' }, 94)).toBe('poor');
    expect(rateMetric({ name: 'totalRequests', unit: 'count' }, 10)).toBeNull();
  });
});

describe('waterfall', () => {
  it('offsets each phase by those before it and scales to the total', () => {
    const bars = waterfall({ dns: 10, tcp: 10, tls: 20, firstByte: 50, download: 10, total: 100 }, 50);
    expect(bars.map((b) => [b.phase, b.offset, b.width])).toEqual([
      ['dns', 0, 5],
      ['tcp', 5, 5],
      ['tls', 10, 10],
      ['firstByte', 20, 25],
      ['download', 45, 5],
    ]);
  });

  it('leaves out phases a run did not have, and shows a tiny phase as one column', () => {
    const bars = waterfall({ dns: 0, tcp: 1, firstByte: 300, download: 2, total: 303 }, 30);
    expect(bars.map((b) => b.phase)).toEqual(['dns', 'tcp', 'firstByte', 'download']);
    expect(bars[1]!.width).toBe(1);
    expect(bars[0]!.width).toBe(0);
  });
});

describe('the rest of a run', () => {
  it('is the total less its phases, and nothing within their rounding', () => {
    expect(restOfRun({ dns: 0, tcp: 5, firstByte: 12, download: 1, total: 26 })).toBe(8);
    expect(restOfRun({ dns: 0, tcp: 5, firstByte: 12, download: 1, total: 20 })).toBe(0);
    // A heartbeat's run has a total and no phase: its job's time, not a rest.
    expect(restOfRun({ total: 40 })).toBe(0);
    expect(restOfRun({ firstByte: 10, total: 40 })).toBe(30);
  });
});

describe('sparkline', () => {
  it('draws the lowest and highest values as the lowest and highest blocks and marks failures', () => {
    const { text, failed } = sparkline(
      [
        { value: 10, failed: false },
        { value: 80, failed: false },
        { value: null, failed: true },
      ],
      10,
    );
    expect(text).toBe('▁█✕');
    expect(failed).toEqual([false, false, true]);
    expect(sparkline([{ value: 1, failed: false }], 5, true).text).toBe('_');
  });
});
