// `--public`: a public dashboard read without credentials replaces the
// account-wide statuses feed. The answer carries the dashboard and its checks'
// statuses; the summary is counted here, as the public read has none.
import { summarize } from '../../domain/summary.js';
import type { Feed } from '../poller.js';
import { statusesInterval } from './statuses-feed.js';

export function publicDashboardFeed(slug: string): Feed {
  return {
    key: 'public-dashboard',
    primary: true,
    active: () => true,
    intervalMs: statusesInterval,
    async run({ client, store, signal }) {
      const { data } = await client.publicDashboard(slug, { signal });
      store.getState().showDashboard(data.dashboard);
      store.getState().applyStatuses(data.checks, summarize(data.checks), Date.now());
    },
  };
}
