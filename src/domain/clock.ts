// The one clock every part of the service reads and sets its timers on, so a
// test can move time itself (test/helpers/fake-clock.ts) instead of waiting.
import { createGridIntervals } from './grid-intervals.js';

/** A pending timer; `unref` lets the process end while it waits (as Node's timers). */
export interface Timer {
  unref(): Timer;
}

export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): Timer;
  clearTimeout(timer: Timer | undefined): void;
  setInterval(fn: () => void, ms: number): Timer;
  clearInterval(timer: Timer | undefined): void;
}

// Intervals fall on the epoch's grid of their length and share a timer an instant
// (grid-intervals.ts): repeating jobs of a thread wake it together.
const grid = createGridIntervals({
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (timer) => clearTimeout(timer as NodeJS.Timeout),
});

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (timer) => clearTimeout(timer as NodeJS.Timeout | undefined),
  setInterval: (fn, ms) => grid.setInterval(fn, ms),
  clearInterval: (timer) => void grid.clearInterval(timer),
};

/** The system's timers with another `now` (tests that move only the time read). */
export const clockWithNow = (now: () => number): Clock => ({ ...systemClock, now });
