import { describe, expect, it } from 'vitest';
import {
  barCells,
  canChart,
  combine,
  coveredFrom,
  formatMetric,
  seriesOverTime,
  valuesPerCheck,
  type ChartCheck,
} from '../../src/domain/dashboard-chart.js';
import { sampleResult } from '../helpers/samples.js';

describe('metrics chart numbers', () => {
  const at = (min: number) => new Date(Date.UTC(2026, 10, 22, 10, min)).toISOString();
  const run = (id: string, min: number, ms: number, ok = true) =>
    sampleResult(id, {
      startedAt: at(min),
      status: ok ? 'success' : 'failed',
      response: { statusCode: 200, statusText: '', headers: {}, body: '', responseTime: ms, size: 0 },
    });
  const a: ChartCheck = { checkId: 'a', checkName: 'A', results: [run('1', 0, 100), run('2', 30, 300)] };
  const b: ChartCheck = { checkId: 'b', checkName: 'B', results: [run('3', 50, 400, false)] };

  it('computes the metric per check and combines it for the dashboard', () => {
    expect(valuesPerCheck('averageResponseTime', [a, b]).map((v) => [v.value, v.runs])).toEqual([
      [200, 2],
      [400, 1],
    ]);
    expect(combine('averageResponseTime', valuesPerCheck('averageResponseTime', [a, b]))).toBeCloseTo(
      800 / 3,
    );
    expect(combine('totalRequests', valuesPerCheck('totalRequests', [a, b]))).toBe(3);
    expect(combine('maxResponseTime', valuesPerCheck('maxResponseTime', [a, b]))).toBe(400);
    expect(combine('minResponseTime', valuesPerCheck('minResponseTime', [a, b]))).toBe(100);
    expect(combine('successRate', valuesPerCheck('successRate', [a, b]))).toBeCloseTo(200 / 3);
    expect(combine('successRate', [])).toBeNull();
  });

  it('draws the metric over time in equal slices, null where no run fell', () => {
    const from = Date.parse(at(0));
    const to = Date.parse(at(60));
    expect(seriesOverTime('averageResponseTime', [a, b], from, to, 4)).toEqual([100, null, 300, 400]);
  });

  it('starts the covered span where a check had more runs than were fetched', () => {
    const from = Date.parse(at(0));
    expect(coveredFrom([a, b], from)).toBe(from);
    const many: ChartCheck = {
      ...a,
      summary: {
        totalRuns: 500,
        successfulRuns: 500,
        failedRuns: 0,
        successRate: 100,
        averageResponseTime: 1,
        p95ResponseTime: 1,
        p99ResponseTime: 1,
      },
    };
    expect(coveredFrom([many, b], from)).toBe(Date.parse(at(0)));
    const later: ChartCheck = { ...many, results: [run('9', 40, 1)] };
    expect(coveredFrom([later, b], from)).toBe(Date.parse(at(40)));
  });

  it.each([
    ['averageResponseTime', 183.4, '183 ms'],
    ['successRate', 99.5, '99.50%'],
    ['totalRequests', 12, '12'],
    ['longestGap', 61.23, '61.2 s'],
    ['cumulativeLayoutShift', 0.12345, '0.123'],
    ['averageResponseTime', null, '—'],
  ])('formats %s %s as %s', (metric, value, text) => {
    expect(formatMetric(metric, value)).toBe(text);
  });

  it('knows which metrics it can chart, and sizes bars', () => {
    expect(canChart('p95ResponseTime')).toBe(true);
    expect(canChart('bogusMetric')).toBe(false);
    expect(barCells(50, 100, 20)).toBe(10);
    expect(barCells(0.1, 100, 20)).toBe(1);
    expect(barCells(null, 100, 20)).toBe(0);
    expect(barCells(200, 100, 20)).toBe(20);
  });
});
