// A job repeated on the service's clock, never two of it at once: a turn that finds
// the last one still running is passed over. `stop` clears the timer and waits for
// the turn under way, so whoever closes after it (storage) is not closed under it.
import type { Clock } from './clock.js';

export interface Repeating {
  stop(): Promise<void>;
}

export function repeat(
  clock: Clock,
  everyMs: number,
  job: () => Promise<unknown>,
  onError: (error: unknown) => void,
): Repeating {
  let running: Promise<void> | undefined;
  let stopping = false;
  const turn = () => {
    if (running || stopping) return;
    running = job()
      .then(() => undefined, onError)
      .finally(() => (running = undefined));
  };
  const timer = clock.setInterval(turn, everyMs).unref();
  return {
    async stop() {
      stopping = true;
      clock.clearInterval(timer);
      await running;
    },
  };
}
