// The board's feed: every page of check statuses with the account summary.
import { readAllStatuses } from '../../api/client.js';
import { effectiveRefreshMs } from '../../domain/dashboard-widgets.js';
import type { ConsoleState } from '../create-store.js';
import type { Feed } from '../poller.js';
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
