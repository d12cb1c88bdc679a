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
import { createInstantTimers, type InstantPlatform } from './instant-timers.js';

/** What the grid needs of the platform: the time read, and one-shot timers. */
export type GridTimers = InstantPlatform;

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

/** How far before its instant a timer may fire, as the wall clock reads it (timers count elapsed time). */
const EARLY_MS = 50;

export function createGridIntervals(platform: GridTimers): GridIntervals {
  const entries = new WeakSet<Entry>();
  // The process waits for an instant while any interval in it is not unref'd.
  const instants = createInstantTimers<Entry>(platform, { fire, held: (e) => e.held });

  function place(entry: Entry, at: number) {
    entry.at = at;
    instants.add(at, entry);
  }

  function fire(at: number, items: Entry[]) {
    // The timer may fire a little before the wall clock reads its instant: the next turn
    // is then counted from the instant, so it is never this instant again. A clock set
    // back further than that counts from its own time, not an hour ahead of it.
    const now = platform.now();
    const from = at - now > EARLY_MS ? now : Math.max(now, at);
    const due = items.filter((e) => e.live);
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
          if (entry.live) instants.hold(entry.at);
          return entry;
        },
      };
      entries.add(entry);
      place(entry, (Math.floor(platform.now() / every) + 1) * every);
      return entry;
    },
    clearInterval(timer) {
      if (!timer || !entries.has(timer as Entry)) return false;
      const entry = timer as Entry;
      entry.live = false;
      instants.delete(entry.at, entry);
      return true;
    },
    instants: () => instants.size(),
  };
}
