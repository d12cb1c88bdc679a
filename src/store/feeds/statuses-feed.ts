// The board's feed: every page of check statuses with the account summary.
import { readAllStatuses } from '../../api/client.js';
import type { Feed } from '../poller.js';

export const statusesFeed: Feed = {
  key: 'statuses',
  primary: true,
  // The board, the wall and the dashboards all show statuses: keep them fresh everywhere.
  active: () => true,
  async run({ client, store, signal }) {
    const { checks, summary } = await readAllStatuses(client, {}, { signal });
    store.getState().applyStatuses(checks, summary ?? null, Date.now());
  },
};
