// bench:probe's arithmetic: the fitted line whose intercept is the standing cost,
// and the bend of its middle point, which is most of that intercept at the bench's rates.
import { describe, expect, it } from 'vitest';
import { bend, fitLine, median } from '../../bench/probe-fit.js';

describe('bench:probe arithmetic', () => {
  it('fits a straight line exactly, with no bend', () => {
    const line = [5, 20, 50].map((x) => ({ x, y: 1.2 * x + 6 }));
    expect(fitLine(line).slope).toBeCloseTo(1.2, 10);
    expect(fitLine(line).intercept).toBeCloseTo(6, 10);
    expect(bend(line)).toBeCloseTo(0, 10);
  });

  it('reads a middle point above the chord as a higher intercept', () => {
    // The 20:03 run of 2026-11-29 (BENCHMARKS.md, "bench:probe"): 2.68, 1.96 and 1.37 ms a run.
    const run = [
      { x: 4.8, y: 4.8 * 2.68 },
      { x: 20.2, y: 20.2 * 1.96 },
      { x: 50, y: 50 * 1.37 },
    ];
    expect(fitLine(run).intercept).toBeCloseTo(10.43, 2);
    expect(bend(run)).toBeCloseTo(7.77, 2);
    // The same run with the middle point on the chord: the intercept the bend costs.
    const flat = run.map((p, i) => (i === 1 ? { x: p.x, y: p.y - bend(run) } : p));
    expect(fitLine(flat).intercept).toBeCloseTo(6.96, 2);
  });

  it('has no bend for fewer than three distinct rates, and takes the median of an even count', () => {
    expect(bend([{ x: 5, y: 10 }])).toBe(0);
    expect(bend([])).toBe(0);
    expect(median([3, 1, 4, 2])).toBe(2.5);
  });
});
