// The board's feed: every page of check statuses with the account summary.
import { readAllStatuses } from '../../api/client.js';
import { effectiveRefreshMs } from '../../domain/dashboard-widgets.js';
import type { ConsoleState } from '../create-store.js';
import type { Feed } from '../poller.js';
import type { StatusesWorker } from '../poll-worker/spawn.js';
import { selectView } from '../selectors.js';

/** The console's interval, or an open dashboard's refreshInterval when that is slower. */
export function statusesInterval(s: ConsoleState): number {
  const top = selectView(s);
  return effectiveRefreshMs(s.session.refreshMs, top.name === 'dashboard' ? top.dashboard : null);
}

export const statusesFeed: Feed = {
  key: 'statuses',
  primary: true,
  // The board, the wall and the dashboards all show statuses: keep them fresh everywhere.
  active: () => true,
  intervalMs: statusesInterval,
  async run({ client, store, signal }) {
    const { checks, summary } = await readAllStatuses(client, {}, { signal });
    store.getState().applyStatuses(checks, summary ?? null, Date.now());
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
    async run({ store }) {
      const refreshMs = statusesInterval(store.getState());
      const changes = await worker.poll(refreshMs);
      store
        .getState()
        .applyStatusChanges({ ...changes, tiers: { plan: changes.plan, refreshMs } }, Date.now());
    },
  };
}
