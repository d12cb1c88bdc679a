import { describe, expect, it } from 'vitest';
import { ageClock, formatAge, formatAgeStep, formatMs, formatPercent } from '../../src/domain/format.js';

describe('format', () => {
  it('reads durations, ages and percentages', () => {
    expect(formatMs(183.4)).toBe('183 ms');
    expect(formatMs(1240)).toBe('1.24 s');
    expect(formatMs(null)).toBe('—');
    expect(formatAge(0, 5_000)).toBe('5s');
    expect(formatAge(0, 240_000)).toBe('4m');
    expect(formatAge(0, 3 * 86_400_000)).toBe('3d');
    expect(formatPercent(99.951)).toBe('99.95%');
    expect(formatPercent(100)).toBe('100%');
  });
});

describe('ages in steps', () => {
  it.each<[number | string | null, number, string]>([
    [0, 0, '<10s'],
    [0, 9_999, '<10s'],
    [0, 10_000, '10s'],
    [0, 19_999, '10s'],
    [0, 59_999, '50s'],
    [0, 60_000, '1m'],
    [0, 3_599_999, '59m'],
    [0, 3_600_000, '1h'],
    [0, 3 * 86_400_000, '3d'],
    [5_000, 0, '<10s'], // a timestamp ahead of the clock is "just now"
    ['1970-01-01T00:00:30.000Z', 60_000, '30s'],
    [null, 0, '—'],
    ['not a date', 0, '—'],
  ])('%j at %i reads %j', (from, now, text) => {
    expect(formatAgeStep(from, now)).toBe(text);
  });

  it('steps the clock by ten seconds', () => {
    expect([0, 9_999, 10_000, 25_500].map(ageClock)).toEqual([0, 0, 10_000, 20_000]);
  });
});
