// What the service opened, closed in the reverse order: the last part started is the
// first stopped, so nothing is closed under a part still using it (storage goes last).
// The same list closes a start that failed half-way.
import { logFailure } from '../storage/observed.js';

export interface Closers {
  /** `what` names the part in the line logged if its close fails. */
  add(what: string, close: () => Promise<unknown> | unknown): void;
  /** Closes everything added, newest first, each awaited; a failure is logged and the rest go on. */
  close(): Promise<void>;
}

export function createClosers(): Closers {
  const stack: Array<{ what: string; close: () => Promise<unknown> | unknown }> = [];
  return {
    add: (what, close) => void stack.push({ what, close }),
    async close() {
      for (let part = stack.pop(); part; part = stack.pop()) {
        try {
          await part.close();
        } catch (error) {
          logFailure(`checkwall: cannot close ${part.what}`, error);
        }
      }
    },
  };
}
