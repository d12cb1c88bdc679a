// The dispatcher's wake-up for retries (dispatcher.ts): each failed attempt's next try is
// an instant; one timer waits for the earliest, so a retry goes out when it falls due,
// not at the next 2 s poll.
import type { Clock, Timer } from '../../domain/clock.js';

/** Calls `wake` at each instant given (a retry falling due), one timer for the earliest. */
export function createRetryWake(clock: Clock, wake: () => void) {
  const due = new Set<number>();
  let timer: Timer | undefined;
  let timerAt = Infinity;
  // An attempt recorded during a stop's grace sets no timer.
  let stopped = false;
  const arm = () => {
    const now = clock.now();
    let next = Infinity;
    for (const at of due)
      if (at <= now) due.delete(at);
      else next = Math.min(next, at);
    if (next === timerAt) return;
    clock.clearTimeout(timer);
    timerAt = next;
    timer = next === Infinity ? undefined : clock.setTimeout(fire, next - now).unref();
  };
  const fire = () => {
    timerAt = Infinity;
    timer = undefined;
    wake();
    arm();
  };
  return {
    at(when: number) {
      if (stopped) return;
      due.add(when);
      arm();
    },
    stop() {
      stopped = true;
      due.clear();
      clock.clearTimeout(timer);
    },
  };
}
