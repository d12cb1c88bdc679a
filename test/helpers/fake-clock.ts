// A clock a test moves itself (src/domain/clock.ts): `advance` fires the timers
// that fall due on the way, in order of their due time (then of their setting),
// each at its own instant, and lets promises settle after each, so work a timer
// starts (a storage read, a run) has its effects before the next one fires.
import { setImmediate as turn } from 'node:timers/promises';
import { vi } from 'vitest';
import type { Clock, Timer } from '../../src/domain/clock.js';

export interface FakeClock extends Clock {
  /** Moves the time `ms` on, firing every timer due on the way. */
  advance(ms: number): Promise<void>;
  /**
   * Sets the time read `ms` on without firing anything, as a wall clock set forward: Node's
   * timers count elapsed time, so each timer waiting is still as far from firing as it was.
   * For a test that needs hours to pass between two things with no work of the timers
   * between them (a reminder falls due, a certificate ages).
   */
  jump(ms: number): void;
  /** Lets pending promises and I/O callbacks settle, moving no time. */
  settle(): Promise<void>;
  /** Timers waiting. */
  pending(): number;
}

interface FakeTimer extends Timer {
  at: number;
  seq: number;
  fn: () => void;
  everyMs?: number | undefined;
}

// Event-loop turns after each timer: enough for a chain of a few awaited SQLite calls.
const TURNS = 10;

export function createFakeClock(start = Date.parse('2026-11-23T10:00:00.000Z')): FakeClock {
  let now = start;
  let seq = 0;
  const timers = new Set<FakeTimer>();
  const add = (fn: () => void, ms: number, everyMs?: number): FakeTimer => {
    const timer: FakeTimer = {
      at: now + Math.max(0, ms),
      seq: seq++,
      fn,
      everyMs,
      unref: () => timer,
    };
    timers.add(timer);
    return timer;
  };
  const remove = (timer: Timer | undefined) => void timers.delete(timer as FakeTimer);
  const settle = async () => {
    for (let i = 0; i < TURNS; i++) await turn();
  };
  const next = (until: number) => {
    let first: FakeTimer | undefined;
    for (const t of timers)
      if (t.at <= until && (!first || t.at < first.at || (t.at === first.at && t.seq < first.seq))) first = t;
    return first;
  };
  return {
    now: () => now,
    setTimeout: (fn, ms) => add(fn, ms),
    clearTimeout: remove,
    // At least 1 ms apart, as Node's: a 0 ms interval would never let time move.
    setInterval: (fn, ms) => add(fn, Math.max(1, ms), Math.max(1, ms)),
    clearInterval: remove,
    async advance(ms) {
      const until = now + ms;
      await settle();
      for (let timer = next(until); timer; timer = next(until)) {
        now = timer.at;
        if (timer.everyMs === undefined) timers.delete(timer);
        else timer.at += timer.everyMs;
        timer.fn();
        await settle();
      }
      now = until;
      await settle();
    },
    jump(ms) {
      now += ms;
      for (const timer of timers) timer.at += ms;
    },
    settle,
    pending: () => timers.size,
  };
}

export interface AdvanceUntilOptions {
  /**
   * What a step set off outside the clock (a run on a worker thread, a request to a
   * target) has got as far as it can before the clock moves again; waited for after
   * each step on real time, bounded.
   */
  idle?: () => boolean | Promise<boolean>;
  stepMs?: number;
  /** The most of the clock's time it may take. */
  withinMs?: number;
}

/** Moves the clock on `stepMs` at a time until `done` holds. */
export async function advanceUntil(
  clock: FakeClock,
  done: () => boolean | Promise<boolean>,
  { idle, stepMs = 100, withinMs = 60_000 }: AdvanceUntilOptions = {},
): Promise<void> {
  const deadline = clock.now() + withinMs;
  const caughtUp = async () => {
    if (!idle) return;
    await vi.waitFor(
      async () => {
        if (!(await idle())) throw new Error('the work a step of the clock set off never came to rest');
      },
      { timeout: 10_000, interval: 5 },
    );
  };
  await caughtUp();
  while (!(await done())) {
    if (clock.now() >= deadline) throw new Error(`not done within ${withinMs} ms of the clock`);
    await clock.advance(Math.min(stepMs, deadline - clock.now()));
    await caughtUp();
  }
}

/** Moves the clock `ms` on, `stepMs` at a time, waiting for `idle` after each step. */
export async function advanceBy(clock: FakeClock, ms: number, opts: AdvanceUntilOptions = {}): Promise<void> {
  const end = clock.now() + ms;
  await advanceUntil(clock, () => clock.now() >= end, { ...opts, withinMs: ms });
}
