// The status rules at every boundary, table-driven.
import { describe, expect, it } from 'vitest';
import { percentile, mean } from '../../src/domain/stats.js';
import { decideCheckStatus, decideLocationStatus, decideTrend } from '../../src/domain/status-rules.js';
import type { RunSample, StatusInput, StatusThresholds } from '../../src/domain/status-types.js';

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
    ['xox', 'degraded'],
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

  // The mean response time of the newest 3 runs against the check's thresholds.
  it.each<[string, number[], StatusThresholds, string]>([
    ['no thresholds', [5000, 5000, 5000], {}, 'passing'],
    ['mean exactly at degradedMs', [90, 100, 110], { degradedMs: 100 }, 'passing'],
    ['mean just above degradedMs', [90, 100, 111], { degradedMs: 100 }, 'degraded'],
    ['only the newest 3 count', [100, 100, 100, 9000], { degradedMs: 100 }, 'passing'],
    ['mean exactly at failingMs', [500, 500, 500], { degradedMs: 100, failingMs: 500 }, 'degraded'],
    ['mean just above failingMs', [500, 500, 501], { degradedMs: 100, failingMs: 500 }, 'failing'],
    ['above failingMs with no degradedMs', [501, 501, 501], { failingMs: 500 }, 'failing'],
  ])('%s: %j with %j is %s', (_name, times, thresholds, expected) => {
    const recent = times.map((t, i) => ({
      startedAt: NOW - i * MIN,
      status: 'success' as const,
      responseTime: t,
    }));
    expect(decideLocationStatus({ id: 'l', recent }, NOW, MIN, thresholds)).toBe(expected);
  });

  it('skips runs without a response time in the mean, and judges none when no run has one', () => {
    const recent = (times: Array<number | null>) =>
      times.map((t, i) => ({ startedAt: NOW - i * MIN, status: 'success' as const, responseTime: t }));
    expect(
      decideLocationStatus({ id: 'l', recent: recent([null, 300, 300]) }, NOW, MIN, { degradedMs: 200 }),
    ).toBe('degraded');
    expect(decideLocationStatus({ id: 'l', recent: recent([null, null]) }, NOW, MIN, { failingMs: 1 })).toBe(
      'passing',
    );
  });
});

const input = (over: Partial<StatusInput> & { patterns?: string[] } = {}): StatusInput => ({
  now: NOW,
  enabled: true,
  runnable: true,
  frequencyMs: MIN,
  thresholds: {},
  availability: 100,
  activeCriticalAlerts: 0,
  locations: (over.patterns ?? ['ooo', 'ooo']).map((p, i) => ({ id: `l${i}`, recent: runs(p) })),
  ...over,
});

describe('check status', () => {
  it.each<[string, Partial<StatusInput> & { patterns?: string[] }, string]>([
    ['all passing', {}, 'passing'],
    ['disabled', { enabled: false }, 'unknown'],
    ['disabled even with failures', { enabled: false, patterns: ['xx', 'xx'] }, 'unknown'],
    ['not runnable', { runnable: false }, 'unknown'],
    ['no data anywhere', { patterns: ['', ''], availability: null }, 'unknown'],
    ['failing at 2 locations', { patterns: ['xx', 'xx', 'ooo'] }, 'failing'],
    ['failing at its only known location', { patterns: ['xx', ''] }, 'failing'],
    ['failing at 1 of 2, the other passing', { patterns: ['xx', 'ooo'] }, 'degraded'],
    ['failing at 1 of 3 (a regional outage)', { patterns: ['ooo', 'ooo', 'xx'] }, 'degraded'],
    ['a mixed location', { patterns: ['oxo', 'ooo'] }, 'degraded'],
    ['one location unknown, the rest passing', { patterns: ['ooo', ''] }, 'passing'],
    ['availability 84.99', { availability: 84.99 }, 'failing'],
    ['availability exactly 85', { availability: 85 }, 'degraded'],
    ['availability 94.99', { availability: 94.99 }, 'degraded'],
    ['availability exactly 95', { availability: 95 }, 'passing'],
    ['availability unknown, runs passing', { availability: null }, 'passing'],
    // A heartbeat (failingRuns: 1): one missed night, then the job rerun by hand.
    [
      'a heartbeat rerun after a miss, availability 50',
      { thresholds: { failingRuns: 1 }, availability: 50, patterns: ['ox'] },
      'degraded',
    ],
    [
      'a heartbeat passing, availability 84.99',
      { thresholds: { failingRuns: 1 }, availability: 84.99 },
      'degraded',
    ],
    [
      'a heartbeat whose newest run failed',
      { thresholds: { failingRuns: 1 }, availability: 50, patterns: ['xo'] },
      'failing',
    ],
    ['slower than the degraded threshold everywhere', { thresholds: { degradedMs: 99 } }, 'degraded'],
    ['exactly at the degraded threshold', { thresholds: { degradedMs: 100 } }, 'passing'],
    ['slower than the failing threshold everywhere', { thresholds: { failingMs: 99 } }, 'failing'],
    ['exactly at the failing threshold', { thresholds: { failingMs: 100 } }, 'passing'],
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

  it('judges thresholds per location: one slow location of two makes the check degraded', () => {
    const slow = runs('ooo').map((r) => ({ ...r, responseTime: 900 }));
    const decision = decideCheckStatus({
      ...input(),
      thresholds: { degradedMs: 300, failingMs: 800 },
      locations: [
        { id: 'fast', recent: runs('ooo') },
        { id: 'slow', recent: slow },
      ],
    });
    expect(decision.locations).toEqual([
      { id: 'fast', status: 'passing' },
      { id: 'slow', status: 'failing' },
    ]);
    expect(decision.status).toBe('degraded');
    expect(decision.reason).toContain('900 ms');
  });

  it('looks at the newest run across locations for the critical-alert rule', () => {
    const older = runs('x', MIN).map((r) => ({ ...r, startedAt: NOW - 2 * MIN }));
    const newer = runs('o');
    const at = (a: RunSample[], b: RunSample[]) =>
      decideCheckStatus({
        ...input(),
        activeCriticalAlerts: 1,
        locations: [
          { id: 'a', recent: a },
          { id: 'b', recent: b },
        ],
      }).status;
    expect(at(older, newer)).toBe('degraded');
    expect(
      at(
        newer.map((r) => ({ ...r, startedAt: NOW - 2 * MIN })),
        runs('x'),
      ),
    ).toBe('failing');
  });
});

describe('trend', () => {
  it.each([
    [100, 100, 99, 99, 'stable'],
    [110, 100, 99, 99, 'stable'],
    [110.01, 100, 99, 99, 'degrading'],
    [89.99, 100, 99, 99, 'improving'],
    [90, 100, 99, 99, 'stable'],
    [100, 100, 100, 99, 'stable'],
    [100, 100, 100.01, 99, 'improving'],
    [100, 100, 98, 99, 'stable'],
    [100, 100, 97.99, 99, 'degrading'],
    [80, 100, 90, 99, 'degrading'],
    [120, 100, 100, 90, 'degrading'],
    [null, 100, 99, 99, 'stable'],
    [100, null, 99, 99, 'stable'],
    [100, 0, 99, 99, 'stable'],
    [null, 100, 0, 100, 'degrading'],
    [null, null, 100, 50, 'improving'],
    [100, 100, null, 99, 'stable'],
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

describe('status of a remote location without a runner', () => {
  const base = {
    now: 100_000,
    enabled: true,
    runnable: true,
    frequencyMs: 2_000,
    thresholds: {},
    availability: 100,
    activeCriticalAlerts: 0,
  };
  const ok = [{ startedAt: 99_000, status: 'success' as const, responseTime: 10 }];

  it('is unknown there with the reason, whatever its stored runs say; the check is judged on the others', () => {
    const decision = decideCheckStatus({
      ...base,
      locations: [
        { id: 'far', recent: ok, noRunner: 'no runner connected for Far' },
        { id: 'near', recent: ok },
      ],
    });
    expect(decision.locations).toEqual([
      { id: 'far', status: 'unknown' },
      { id: 'near', status: 'passing' },
    ]);
    expect(decision.status).toBe('passing');
    expect(decision.reason).toBe('recent runs passed everywhere; no runner connected for Far');
  });

  it('makes the check unknown with the reason when it is its only location', () => {
    const decision = decideCheckStatus({
      ...base,
      locations: [{ id: 'far', recent: ok, noRunner: 'no runner connected for Far' }],
    });
    expect(decision).toMatchObject({ status: 'unknown', reason: 'no runner connected for Far' });
  });
});
