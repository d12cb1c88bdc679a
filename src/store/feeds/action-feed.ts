// A person's action (acknowledge an alert, test a channel, set its window, silence,
// end or extend a window, run, pause or resume a check): sent once while the store
// says it is pending, even while polling is paused, and never retried by itself; its
// outcome, good or bad, goes back to the store. An action a view left (its request
// aborted) hands nothing back.
import type { MonitoringClient } from '../../api/client.js';
import type { Feed } from '../poller.js';
import { toErrorInfo } from '../poller.js';
import type { ConsoleState, Outcome } from '../state.js';
import type { ErrorInfo } from '../types.js';

export function actionFeed<P, V>(spec: {
  key: string;
  /** What is to be sent, or undefined when nothing is. */
  pending(s: ConsoleState): P | undefined;
  /** Changes when another action is pending (a test of another channel). */
  target?(s: ConsoleState): string;
  act(client: MonitoringClient, pending: P, signal: AbortSignal): Promise<V>;
  done(s: ConsoleState, outcome: Outcome<V>, pending: P): void;
  /** How a failure is told (default: the error as the poller describes it). */
  errorOf?(error: unknown): ErrorInfo;
}): Feed {
  const errorOf = spec.errorOf ?? toErrorInfo;
  return {
    key: spec.key,
    active: (s) => spec.pending(s) !== undefined,
    ...(spec.target ? { target: spec.target } : {}),
    ignoresPause: true,
    async run({ client, store, signal }) {
      const pending = spec.pending(store.getState());
      if (pending === undefined) return;
      let value: V;
      try {
        value = await spec.act(client, pending, signal);
      } catch (error) {
        if (!signal.aborted) spec.done(store.getState(), { ok: false, error: errorOf(error) }, pending);
        return;
      }
      spec.done(store.getState(), { ok: true, value }, pending);
    },
  };
}
