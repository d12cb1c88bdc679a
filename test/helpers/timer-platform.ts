// One-shot timers on a wall clock a test reads and moves itself: the platform under
// the instants' timers (src/domain/instant-timers.ts) and the grid intervals
// (src/domain/grid-intervals.ts), whose tests fire what falls due by moving it on.
import type { InstantPlatform } from '../../src/domain/instant-timers.js';

/** One-shot timers on a wall clock the test reads and moves; `elapse` fires what falls due. */
export function timerPlatform(start = 0) {
  let wall = start;
  let mono = 0;
  let seq = 0;
  let created = 0;
  const timers = new Map<number, { due: number; fn: () => void; refd: boolean }>();
  const handle = (id: number) => ({
    id,
    ref: () => void (timers.get(id)!.refd = true),
    unref: () => void (timers.get(id)!.refd = false),
  });
  const timersApi: InstantPlatform = {
    now: () => wall,
    setTimeout(fn, ms) {
      const id = ++seq;
      created++;
      timers.set(id, { due: mono + ms, fn, refd: true });
      return handle(id);
    },
    clearTimeout: (timer) => void timers.delete((timer as ReturnType<typeof handle>).id),
  };
  return {
    timersApi,
    /** Moves both clocks on by `ms`, firing each timer due on the way in order. */
    elapse(ms: number) {
      const end = mono + ms;
      for (;;) {
        const next = [...timers.entries()]
          .filter(([, t]) => t.due <= end)
          .sort((a, b) => a[1].due - b[1].due)[0];
        if (!next) break;
        wall += next[1].due - mono;
        mono = next[1].due;
        timers.delete(next[0]);
        next[1].fn();
      }
      wall += end - mono;
      mono = end;
    },
    /** Sets the wall clock alone, as an operator or NTP would. */
    setWall: (ms: number) => void (wall = ms),
    wall: () => wall,
    pending: () => timers.size,
    created: () => created,
    held: () => [...timers.values()].filter((t) => t.refd).length,
  };
}
