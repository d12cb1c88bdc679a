// Intervals on the epoch's grid (src/domain/grid-intervals.ts), on a platform the test
// moves itself: each fires at the multiples of its length, those due at one instant from
// one timer, and a wall clock set back or forward never stalls them.
import { describe, expect, it, vi } from 'vitest';
import { createGridIntervals } from '../../src/domain/grid-intervals.js';
import { systemClock } from '../../src/domain/clock.js';
import { timerPlatform as platform } from '../helpers/timer-platform.js';

describe('intervals on the epoch grid', () => {
  it('fires each at the multiples of its length, the first at the next of them', () => {
    const p = platform(1_000_000_130);
    const grid = createGridIntervals(p.timersApi);
    const fired: Array<[string, number]> = [];
    grid.setInterval(() => fired.push(['q', p.wall()]), 250);
    grid.setInterval(() => fired.push(['s', p.wall()]), 1_000);
    p.elapse(3_000);
    const q = fired.filter(([k]) => k === 'q').map(([, at]) => at);
    const s = fired.filter(([k]) => k === 's').map(([, at]) => at);
    expect(q[0]).toBe(1_000_000_250); // 120 ms on: never later than Node's own interval would fire
    for (const at of q) expect(at % 250).toBe(0);
    expect(q.slice(1).map((at, i) => at - q[i]!)).toEqual(Array<number>(q.length - 1).fill(250));
    expect(s).toEqual([1_000_001_000, 1_000_002_000, 1_000_003_000]);
    // The second's instants are the quarter's: one timer an instant, 12 from 250 to 3,000
    // and the two waiting (3,250 and 4,000), not one more for each of the second's.
    expect(grid.instants()).toBe(2);
    expect(p.created()).toBe(14);
  });

  it('fires every interval due at an instant from one timer, and a cleared one no more', () => {
    const p = platform(0);
    const grid = createGridIntervals(p.timersApi);
    let a = 0;
    let b = 0;
    const ta = grid.setInterval(() => a++, 1_000);
    grid.setInterval(() => b++, 1_000);
    expect(grid.instants()).toBe(1);
    p.elapse(5_000);
    expect([a, b]).toEqual([5, 5]);
    grid.clearInterval(ta);
    p.elapse(2_000);
    expect([a, b]).toEqual([5, 7]);
    expect(grid.clearInterval(undefined)).toBe(false);
  });

  it('lets the process end while every interval of an instant is unref’d', () => {
    const p = platform(0);
    const grid = createGridIntervals(p.timersApi);
    grid.setInterval(() => undefined, 1_000).unref();
    expect(p.held()).toBe(0);
    const held = grid.setInterval(() => undefined, 1_000);
    expect(p.held()).toBe(1);
    grid.clearInterval(held);
    expect(p.held()).toBe(0);
    p.elapse(3_000);
    expect(p.pending()).toBe(1);
    expect(p.held()).toBe(0);
  });

  it('passes over turns a busy thread missed, and follows a wall clock set back or forward', () => {
    const p = platform(1_700_000_010_000);
    const grid = createGridIntervals(p.timersApi);
    const fired: number[] = [];
    grid.setInterval(() => fired.push(p.wall()), 1_000);
    p.elapse(2_000); // fires at 12,000
    // Set back an hour: the next turn is within a second of the new time, not an hour on.
    p.setWall(p.wall() - 3_600_000);
    p.elapse(1_000); // the timer set before still fires (elapsed time), at the old instant's turn
    p.elapse(2_000);
    const back = fired.slice(-2);
    expect(back[1]! - back[0]!).toBeLessThanOrEqual(1_000);
    expect(back[1]! % 1_000).toBe(0);
    // Forward an hour: one turn soon, not 3,600 at once.
    const before = fired.length;
    p.setWall(p.wall() + 3_600_000);
    p.elapse(1_500);
    expect(fired.length - before).toBeLessThanOrEqual(2);
    expect(fired.at(-1)! % 1_000).toBe(0);
  });

  it('runs every job of an instant though one throws, then throws its error', () => {
    const p = platform(0);
    const grid = createGridIntervals(p.timersApi);
    let ran = 0;
    grid.setInterval(() => {
      throw new Error('job failed');
    }, 1_000);
    grid.setInterval(() => ran++, 1_000);
    expect(() => p.elapse(2_000)).toThrow('job failed');
    expect(ran).toBe(1);
  });

  it('is what the system clock sets: its timer is set for the next multiple of the interval', () => {
    const setTimeoutSpy = vi.spyOn(globalThis, 'setTimeout');
    try {
      const before = Date.now();
      const timer = systemClock.setInterval(() => undefined, 1_000);
      const after = Date.now();
      const delay = setTimeoutSpy.mock.calls.at(-1)![1]!;
      systemClock.clearInterval(timer);
      // Set when the wall clock read between `before` and `after`, for the next whole second
      // of the epoch: one lies between the two readings moved on by the delay.
      expect(delay).toBeGreaterThan(0);
      expect(delay).toBeLessThanOrEqual(1_000);
      expect(Math.floor((after + delay) / 1_000) * 1_000).toBeGreaterThanOrEqual(before + delay);
    } finally {
      setTimeoutSpy.mockRestore();
    }
  });
});
