// The open check's results: the page the user looks at (with the filters), the
// most recent runs of the period for the breakdown and metric values, and the
// latest failed run. Active only while a check, a result or a check's metrics
// are on screen: leaving them stops this polling.
import type { CheckResultsQuery } from '../../api/schemas/index.js';
import type { ConsoleState } from '../state.js';
import { PAGE_SIZE, WINDOW_SIZE } from '../detail-slice.js';
import type { ResultFilters } from '../types.js';
import type { Feed } from '../poller.js';
import { toErrorInfo } from '../poller.js';
import { selectView } from '../selectors.js';

/** The check whose results the top view shows, with the filters it asks them by. */
export function openResults(s: ConsoleState): { checkId: string; filters: ResultFilters } | null {
  const view = selectView(s);
  if (view.name === 'check' || (view.name === 'metrics' && view.checkId))
    return { checkId: view.checkId!, filters: view.filters };
  if (view.name === 'result') {
    const below = s.stack.findLast((v) => v.name === 'check');
    return below?.name === 'check' ? { checkId: below.checkId, filters: below.filters } : null;
  }
  return null;
}

export const resultsFeed: Feed = {
  key: 'results',
  active: (s) => openResults(s) !== null,
  target: (s) => {
    const open = openResults(s);
    // An action's runs landing (actionsVersion) are read at once, not at the next poll.
    return open ? `${open.checkId}|${JSON.stringify(open.filters)}|${s.actionsVersion}` : '';
  },
  async run({ client, store, signal }) {
    const open = openResults(store.getState());
    if (!open) return;
    const { checkId, filters } = open;
    const query: CheckResultsQuery = {
      period: filters.period,
      status: filters.status,
      location: filters.location,
      triggeredBy: filters.triggeredBy,
      responseTimeMin: filters.responseTimeMin,
      sortBy: filters.sortBy,
      sortOrder: filters.sortOrder,
      page: filters.page,
      limit: PAGE_SIZE,
    };
    try {
      const [page, window, failed] = await Promise.all([
        client.checkResults(checkId, query, { signal }),
        client.checkResults(checkId, { period: filters.period, limit: WINDOW_SIZE }, { signal }),
        client.checkResults(
          checkId,
          { period: '30d', status: 'failed', limit: 1, includeSummary: false },
          { signal },
        ),
      ]);
      store.getState().applyResults(checkId, page, window, failed.data[0] ?? null);
    } catch (error) {
      if (!signal.aborted) store.getState().resultsFailed(checkId, toErrorInfo(error));
      throw error;
    }
  },
};

export const metricsFeed: Feed = {
  key: 'metrics',
  active: (s) => selectView(s).name === 'metrics',
  target: (s) => `${s.metricsType}|${s.metricsCategory ?? ''}`,
  // The catalogue hardly changes: once a minute is plenty.
  intervalMs: () => 60_000,
  async run({ client, store, signal, now }) {
    const { metricsType, metricsCategory } = store.getState();
    try {
      const catalogue = await client.metrics(
        metricsType,
        { category: metricsCategory ?? undefined },
        { signal },
      );
      store.getState().setCatalogue({ state: 'ok', data: catalogue, at: now() });
    } catch (error) {
      if (!signal.aborted) store.getState().setCatalogue({ state: 'error', error: toErrorInfo(error) });
      throw error;
    }
  },
};
