// The board's feed: every page of check statuses with the account summary.
import { readAllStatuses } from '../../api/client.js';
import { effectiveRefreshMs } from '../../domain/dashboard-widgets.js';
import type { ConsoleState } from '../state.js';
import type { Feed } from '../poller.js';
import type { StatusesWorker } from '../poll-worker/spawn.js';
import { selectFirstRuns, selectView, WARM_UP_POLL_MS } from '../selectors.js';

/** The console's interval, or an open dashboard's refreshInterval when that is slower. */
export function steadyInterval(s: ConsoleState): number {
  const top = selectView(s);
  return effectiveRefreshMs(s.session.refreshMs, top.name === 'dashboard' ? top.dashboard : null);
}

/**
 * The steady interval, but every second while checks wait for their first run in
 * the console's first refresh interval: the demo's first runs land a second or two
 * after the console's first poll, which would otherwise show UNKNOWN for a whole interval.
 */
export function statusesInterval(s: ConsoleState, now: number): number {
  const steady = steadyInterval(s);
  return selectFirstRuns(s, now) > 0 ? Math.min(WARM_UP_POLL_MS, steady) : steady;
}

export const statusesFeed: Feed = {
  key: 'statuses',
  primary: true,
  // The board, the wall and the dashboards all show statuses: keep them fresh everywhere.
  active: () => true,
  // A window started, changed or ended here shows on the board at once, not a poll later.
  target: (s) => String(s.maintenanceVersion),
  intervalMs: statusesInterval,
  async run({ client, store, signal, now }) {
    const { checks, summary, service, locationOutages } = await readAllStatuses(client, {}, { signal });
    store.getState().applyService(service ?? null);
    store.getState().applyLocationOutages(locationOutages ?? []);
    store.getState().applyStatuses(checks, summary ?? null, now());
  },
};

/**
 * The same feed, polled by the worker thread: the UI thread only applies what
 * changed. Its errors are the client's own ApiErrors, so the poller's backoff,
 * Retry-After and the connection state behave as they do with `statusesFeed`.
 */
export function statusesFeedVia(worker: StatusesWorker): Feed {
  return {
    ...statusesFeed,
    async run({ store, now }) {
      const refreshMs = steadyInterval(store.getState());
      const changes = await worker.poll(refreshMs);
      store.getState().applyStatusChanges({ ...changes, tiers: { plan: changes.plan, refreshMs } }, now());
    },
  };
}
