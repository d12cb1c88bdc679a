// One timer an instant: the things due at one instant (the schedule's slots,
// server/schedule/slots.ts; the system clock's intervals, grid-intervals.ts) are handed
// over together by one platform timer, so the thread wakes once for all of them.
// Separate timers for one instant could expire a millisecond apart (each counted from
// its own now) and wake it several times.

/** A platform timer: `ref` only where some item may hold the process (Node's timers). */
export interface PlatformTimer {
  unref(): unknown;
  ref?(): unknown;
}

/** What the instants need of the platform: the time read, and one-shot timers. */
export interface InstantPlatform<H extends PlatformTimer = PlatformTimer> {
  now(): number;
  setTimeout(fn: () => void, ms: number): H;
  clearTimeout(timer: H): void;
}

export interface InstantTimers<T> {
  /** Puts `item` at the instant `at`; the first item of an instant sets its timer. */
  add(at: number, item: T): void;
  /** Takes `item` out of `at`; the last one out clears the timer. */
  delete(at: number, item: T): void;
  /** Whether the instant's timer holds the process, after one of its items' `held` changed. */
  hold(at: number): void;
  /** Clears every instant. */
  clear(): void;
  /** Instants with a timer set. */
  size(): number;
}

export function createInstantTimers<T, H extends PlatformTimer = PlatformTimer>(
  platform: InstantPlatform<H>,
  opts: {
    /** The instant came: its items, in the order they were put there (the instant is already gone). */
    fire(at: number, items: T[]): void;
    /** An item that holds the process while it waits; without it no timer does (unref'd). */
    held?: (item: T) => boolean;
  },
): InstantTimers<T> {
  const instants = new Map<number, { timer: H; items: Set<T> }>();
  const held = opts.held;

  function hold(at: number) {
    const instant = instants.get(at);
    if (!instant) return;
    if (held && [...instant.items].some(held)) instant.timer.ref?.();
    else instant.timer.unref();
  }

  function fire(at: number) {
    const instant = instants.get(at);
    instants.delete(at);
    if (instant) opts.fire(at, [...instant.items]);
  }

  return {
    add(at, item) {
      const instant = instants.get(at);
      if (!instant) {
        const timer = platform.setTimeout(() => fire(at), Math.max(0, at - platform.now()));
        instants.set(at, { timer, items: new Set([item]) });
        return hold(at);
      }
      instant.items.add(item);
      if (held?.(item)) instant.timer.ref?.();
    },
    delete(at, item) {
      const instant = instants.get(at);
      if (!instant?.items.delete(item)) return;
      if (instant.items.size > 0) return hold(at);
      platform.clearTimeout(instant.timer);
      instants.delete(at);
    },
    hold,
    clear() {
      for (const { timer } of instants.values()) platform.clearTimeout(timer);
      instants.clear();
    },
    size: () => instants.size,
  };
}
