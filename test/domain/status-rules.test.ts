// The status rules at every boundary, table-driven.
import { describe, expect, it } from 'vitest';
import { percentile, mean } from '../../src/domain/stats.js';
import { decideCheckStatus, decideLocationStatus, decideTrend } from '../../src/domain/status-rules.js';
import type { RunSample, StatusInput } from '../../src/domain/status-types.js';

const NOW = 1_000_000_000;
const MIN = 60_000;
const runs = (pattern: string, spacing = MIN): RunSample[] =>
  [...pattern].map((c, i) => ({
    startedAt: NOW - i * spacing,
    status: c === 'o' ? 'success' : 'failed',
    responseTime: 100,
  }));

describe('location status (newest run first: o success, x failed)', () => {
  it.each([
    ['', 'unknown'],
    ['o', 'passing'],
    ['oo', 'passing'],
    ['ooo', 'passing'],
    ['ooox', 'passing'],
    ['x', 'degraded'],
    ['xo', 'degraded'],
    ['ox', 'degraded'],
    ['oox', 'degraded'],
    ['xx', 'failing'],
    ['xxo', 'failing'],
  ])('%j is %s', (pattern, expected) => {
    expect(decideLocationStatus({ id: 'l', recent: runs(pattern) }, NOW, MIN)).toBe(expected);
  });

  it('is unknown when the newest run is older than 3 frequencies, known at exactly 3', () => {
    const at = (age: number) =>
      decideLocationStatus(
        { id: 'l', recent: [{ startedAt: NOW - age, status: 'success', responseTime: 1 }] },
        NOW,
        MIN,
      );
    expect(at(3 * MIN)).toBe('passing');
    expect(at(3 * MIN + 1)).toBe('unknown');
  });
});

const input = (over: Partial<StatusInput> & { patterns?: string[] } = {}): StatusInput => ({
  now: NOW,
  enabled: true,
  runnable: true,
  frequencyMs: MIN,
  thresholds: {},
  availability: 100,
  averageResponseTime: 100,
  activeCriticalAlerts: 0,
  locations: (over.patterns ?? ['ooo', 'ooo']).map((p, i) => ({ id: `l${i}`, recent: runs(p) })),
  ...over,
});

describe('check status', () => {
  it.each<[string, Partial<StatusInput> & { patterns?: string[] }, string]>([
    ['all passing', {}, 'passing'],
    ['disabled', { enabled: false }, 'unknown'],
    ['not runnable', { runnable: false }, 'unknown'],
    ['no data anywhere', { patterns: ['', ''], availability: null }, 'unknown'],
    ['failing at 2 locations', { patterns: ['xx', 'xx', 'ooo'] }, 'failing'],
    ['failing at its only known location', { patterns: ['xx', ''] }, 'failing'],
    ['failing at 1 of 2, the other passing', { patterns: ['xx', 'ooo'] }, 'degraded'],
    ['a mixed location', { patterns: ['oxo', 'ooo'] }, 'degraded'],
    ['availability 84.99', { availability: 84.99 }, 'failing'],
    ['availability exactly 85', { availability: 85 }, 'degraded'],
    ['availability 94.99', { availability: 94.99 }, 'degraded'],
    ['availability exactly 95', { availability: 95 }, 'passing'],
    ['slower than the degraded threshold', { thresholds: { degradedMs: 99 } }, 'degraded'],
    ['exactly at the degraded threshold', { thresholds: { degradedMs: 100 } }, 'passing'],
    [
      'critical alert and newest run failed',
      { activeCriticalAlerts: 1, patterns: ['xoo', 'ooo'] },
      'failing',
    ],
    ['critical alert but newest run passed', { activeCriticalAlerts: 1 }, 'passing'],
  ])('%s', (_name, over, expected) => {
    const decision = decideCheckStatus(input(over));
    expect(decision.status).toBe(expected);
    expect(decision.reason.length).toBeGreaterThan(0);
  });
});

describe('trend', () => {
  it.each([
    [100, 100, 99, 99, 'stable'],
    [110, 100, 99, 99, 'stable'],
    [110.01, 100, 99, 99, 'degrading'],
    [89.99, 100, 99, 99, 'improving'],
    [90, 100, 99, 99, 'stable'],
    [100, 100, 99, 97.5, 'improving'],
    [100, 100, 97.5, 99, 'degrading'],
    [null, 100, 99, 99, 'stable'],
    [100, null, 99, 99, 'stable'],
  ])('now %s ms vs %s ms, availability %s vs %s: %s', (nowMs, baseMs, nowA, baseA, expected) => {
    expect(
      decideTrend(
        { averageResponseTime: nowMs, availability: nowA },
        { averageResponseTime: baseMs, availability: baseA },
      ),
    ).toBe(expected);
  });
});

describe('stats', () => {
  it('uses nearest-rank percentiles', () => {
    const values = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(values, 95)).toBe(95);
    expect(percentile(values, 99)).toBe(99);
    expect(percentile(values, 50)).toBe(50);
    expect(percentile([7], 95)).toBe(7);
    expect(percentile([], 95)).toBeNull();
    expect(mean([1, 2, 3])).toBe(2);
    expect(mean([])).toBeNull();
  });
});
