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

/** Told how late (ms, never below 0) each of this thread's system timers fired. */
export type LatenessListener = (lateMs: number) => void;
const lateness = new Set<LatenessListener>();

/**
 * Hears how late each timer of the system clock fires on this thread, from now until the
 * returned function is called: the event-loop delay, measured at the wake-ups the thread
 * already has (metrics/loop-delay.ts) rather than by a timer of its own.
 */
export function onTimerLateness(listener: LatenessListener): () => void {
  lateness.add(listener);
  return () => void lateness.delete(listener);
}

function timeout(fn: () => void, ms: number): NodeJS.Timeout {
  if (lateness.size === 0) return setTimeout(fn, ms);
  // Node runs a timer of 0 ms after 1 ms, counted from the loop's time, which is read
  // before the code that set it ran: it may fire before `due`, never after it for that.
  const due = performance.now() + Math.max(1, ms);
  return setTimeout(() => {
    const late = Math.max(0, performance.now() - due);
    for (const listener of lateness) listener(late);
    fn();
  }, ms);
}

// Intervals fall on the epoch's grid of their length and share a timer an instant
// (grid-intervals.ts): repeating jobs of a thread wake it together.
const grid = createGridIntervals({
  now: () => Date.now(),
  setTimeout: timeout,
  clearTimeout: (timer) => clearTimeout(timer as NodeJS.Timeout),
});

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: timeout,
  clearTimeout: (timer) => clearTimeout(timer as NodeJS.Timeout | undefined),
  setInterval: (fn, ms) => grid.setInterval(fn, ms),
  clearInterval: (timer) => void grid.clearInterval(timer),
};

/** The system's timers with another `now` (tests that move only the time read). */
export const clockWithNow = (now: () => number): Clock => ({ ...systemClock, now });
