// The open check's results: the page the user looks at (with the filters), the
// most recent runs of the period for the breakdown and metric values, and the
// latest failed run. Active only while a check, a result or a check's metrics
// are on screen: leaving them stops this polling.
import type { CheckResultsQuery } from '../../api/schemas.js';
import type { ConsoleState } from '../create-store.js';
import { PAGE_SIZE, WINDOW_SIZE } from '../detail-slice.js';
import type { Feed } from '../poller.js';
import { toErrorInfo } from '../poller.js';
import { selectView } from '../selectors.js';

function openCheckId(s: ConsoleState): string | null {
  const view = selectView(s);
  if (view.name === 'check' || view.name === 'result') return view.params['checkId'] ?? null;
  if (view.name === 'metrics') return view.params['checkId'] ?? null;
  return null;
}

export const resultsFeed: Feed = {
  key: 'results',
  active: (s) => openCheckId(s) !== null && s.detail.checkId === openCheckId(s),
  target: (s) => `${s.detail.checkId ?? ''}|${JSON.stringify(s.detail.filters)}`,
  async run({ client, store, signal }) {
    const { checkId, filters } = store.getState().detail;
    if (!checkId) return;
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
  async run({ client, store, signal }) {
    const { metricsType, metricsCategory } = store.getState();
    try {
      const catalogue = await client.metrics(
        metricsType,
        { category: metricsCategory ?? undefined },
        { signal },
      );
      store.getState().setCatalogue({ state: 'ok', data: catalogue, at: Date.now() });
    } catch (error) {
      if (!signal.aborted) store.getState().setCatalogue({ state: 'error', error: toErrorInfo(error) });
      throw error;
    }
  },
};
