// Intervals on the epoch's grid (systemClock.setInterval): an interval of `ms` fires at
// the multiples of `ms` since the epoch, the first at the next of them (within `ms` of
// when it is set, as Node's would fire, or sooner), and every interval due at one
// instant fires from one timer. The service's repeating jobs (the status warmer every
// 250 ms; maintenance, metrics and the dispatcher every 1-5 s) each woke the thread at
// its own phase; on the grid the slower ones fall due at the instants of the faster
// ones and share their wake-up, and a thread woken from sleep pays about as much as a
// small job's work (BENCHMARKS.md, "bench:threads, intervals on the epoch's grid"). A
// job still runs once every `ms`; a turn the thread was too busy to make is passed
// over, as with Node's own intervals; a wall clock set back or forward moves the next
// turn to the next instant of the new time, never further.
import type { Timer } from './clock.js';

/** What the grid needs of the platform: the time read, and one-shot timers. */
export interface GridTimers {
  now(): number;
  setTimeout(fn: () => void, ms: number): { ref(): unknown; unref(): unknown };
  clearTimeout(timer: { ref(): unknown; unref(): unknown }): void;
}

export interface GridIntervals {
  setInterval(fn: () => void, ms: number): Timer;
  /** False for a timer the grid did not make. */
  clearInterval(timer: Timer | undefined): boolean;
  /** Instants with a timer set (for tests). */
  instants(): number;
}

interface Entry extends Timer {
  fn: () => void;
  ms: number;
  /** The instant it waits for. */
  at: number;
  held: boolean;
  live: boolean;
}

interface Instant {
  timer: { ref(): unknown; unref(): unknown };
  entries: Set<Entry>;
}

/** How far before its instant a timer may fire, as the wall clock reads it (timers count elapsed time). */
const EARLY_MS = 50;

export function createGridIntervals(platform: GridTimers): GridIntervals {
  const instants = new Map<number, Instant>();
  const entries = new WeakSet<Entry>();

  /** Whether the process waits for this instant: while any interval in it is not unref'd. */
  const hold = (instant: Instant) => {
    if ([...instant.entries].some((e) => e.held)) instant.timer.ref();
    else instant.timer.unref();
  };

  function place(entry: Entry, at: number) {
    entry.at = at;
    let instant = instants.get(at);
    if (!instant) {
      const timer = platform.setTimeout(() => fire(at), Math.max(0, at - platform.now()));
      instant = { timer, entries: new Set() };
      instants.set(at, instant);
    }
    instant.entries.add(entry);
    hold(instant);
  }

  function fire(at: number) {
    const instant = instants.get(at);
    instants.delete(at);
    if (!instant) return;
    // The timer may fire a little before the wall clock reads its instant: the next turn
    // is then counted from the instant, so it is never this instant again. A clock set
    // back further than that counts from its own time, not an hour ahead of it.
    const now = platform.now();
    const from = at - now > EARLY_MS ? now : Math.max(now, at);
    const due = [...instant.entries].filter((e) => e.live);
    for (const entry of due) place(entry, (Math.floor(from / entry.ms) + 1) * entry.ms);
    let failed: { error: unknown } | undefined;
    for (const entry of due) {
      if (!entry.live) continue; // cleared by a job before it in this instant
      try {
        entry.fn();
      } catch (error) {
        failed ??= { error };
      }
    }
    // As a failing Node interval does, once every job of the instant has had its turn.
    if (failed) throw failed.error;
  }

  function cancel(entry: Entry) {
    entry.live = false;
    const instant = instants.get(entry.at);
    if (!instant) return;
    instant.entries.delete(entry);
    if (instant.entries.size > 0) return hold(instant);
    platform.clearTimeout(instant.timer);
    instants.delete(entry.at);
  }

  return {
    setInterval(fn, ms) {
      const every = Math.max(1, Math.round(ms));
      const entry: Entry = {
        fn,
        ms: every,
        at: 0,
        held: true,
        live: true,
        unref() {
          entry.held = false;
          const instant = instants.get(entry.at);
          if (entry.live && instant) hold(instant);
          return entry;
        },
      };
      entries.add(entry);
      place(entry, (Math.floor(platform.now() / every) + 1) * every);
      return entry;
    },
    clearInterval(timer) {
      if (!timer || !entries.has(timer as Entry)) return false;
      cancel(timer as Entry);
      return true;
    },
    instants: () => instants.size,
  };
}
