// Dashboards: the list while it is on screen (tags and privacy go to the API),
// and the runs behind an open dashboard's metrics charts. The charts' cost is
// bounded: one results request per check, for at most CHART_MAX_CHECKS checks
// (by name, so the bars stay put) and each distinct period, at most once a minute.
import type { CheckStatus, Period } from '../../api/schemas.js';
import { chartPeriods, effectiveRefreshMs } from '../../domain/dashboard-widgets.js';
import { compareChecks } from '../../domain/order.js';
import type { ConsoleState } from '../create-store.js';
import { DASHBOARDS_PAGE_SIZE, type ChartData } from '../dashboards-slice.js';
import type { Feed, FeedContext } from '../poller.js';
import { toErrorInfo } from '../poller.js';
import { inScope, selectView } from '../selectors.js';

export const CHART_MAX_CHECKS = 10;
export const CHART_RUNS_PER_CHECK = 100;
const CHART_MIN_INTERVAL_MS = 60_000;
const PERIOD_MS: Record<Period, number> = {
  '1h': 3_600_000,
  '6h': 21_600_000,
  '24h': 86_400_000,
  '7d': 604_800_000,
  '30d': 2_592_000_000,
};

const listTarget = (s: ConsoleState) => JSON.stringify(s.dashboardsQuery);

export const dashboardsFeed: Feed = {
  key: 'dashboards',
  active: (s) => selectView(s).name === 'dashboards',
  target: listTarget,
  async run({ client, store, signal }) {
    const asked = listTarget(store.getState());
    const { page, tags, isPrivate } = store.getState().dashboardsQuery;
    const previous = store.getState().dashboards;
    const current = () => listTarget(store.getState()) === asked;
    try {
      const list = await client.dashboards(
        { page, limit: DASHBOARDS_PAGE_SIZE, tags: tags.length ? tags : undefined, isPrivate },
        { signal },
      );
      if (current()) store.getState().setDashboards({ state: 'ok', data: list, at: Date.now() });
    } catch (error) {
      const data = previous.state === 'ok' || previous.state === 'error' ? previous.data : undefined;
      if (!signal.aborted && current())
        store.getState().setDashboards({ state: 'error', error: toErrorInfo(error), data });
      throw error;
    }
  },
};

let chosenMemo:
  { checks: unknown; scope: unknown; value: { chosen: CheckStatus[]; leftOut: number } } | undefined;

/** The checks a chart reads: the dashboard's by name, at most CHART_MAX_CHECKS. */
export function chartChecks(s: ConsoleState): { chosen: CheckStatus[]; leftOut: number } {
  // The poller asks for the target on every change of the store: sort only when the checks did change.
  if (chosenMemo?.checks === s.checks && chosenMemo.scope === s.scope) return chosenMemo.value;
  const all = Object.values(s.checks)
    .filter((c) => inScope(c, s.scope))
    .sort((a, b) => compareChecks(a, b, 'name'));
  const value = {
    chosen: all.slice(0, CHART_MAX_CHECKS),
    leftOut: Math.max(0, all.length - CHART_MAX_CHECKS),
  };
  chosenMemo = { checks: s.checks, scope: s.scope, value };
  return value;
}

const chartTarget = (s: ConsoleState) =>
  s.dashboard && selectView(s).name === 'dashboard'
    ? `${s.dashboard.id}|${chartPeriods(s.dashboard).join(',')}|${chartChecks(s)
        .chosen.map((c) => c.checkId)
        .join(',')}`
    : '';

export const dashboardChartsFeed: Feed = {
  key: 'dashboard-charts',
  active: (s) =>
    !s.session.isPublic &&
    selectView(s).name === 'dashboard' &&
    s.dashboard !== null &&
    chartPeriods(s.dashboard).length > 0,
  target: chartTarget,
  intervalMs: (s) => effectiveRefreshMs(CHART_MIN_INTERVAL_MS, s.dashboard),
  async run(ctx) {
    const s = ctx.store.getState();
    if (!s.dashboard) return;
    const { chosen, leftOut } = chartChecks(s);
    let failure: unknown;
    for (const period of chartPeriods(s.dashboard)) {
      try {
        await readChart(ctx, period, chosen, leftOut);
      } catch (error) {
        if (ctx.signal.aborted) return;
        failure ??= error;
        const old = ctx.store.getState().charts[period];
        const data = old && (old.state === 'ok' || old.state === 'error') ? old.data : undefined;
        ctx.store.getState().setChart(period, { state: 'error', error: toErrorInfo(error), data });
      }
    }
    if (failure) throw failure;
  },
};

async function readChart(
  { client, store, signal }: FeedContext,
  period: Period,
  chosen: CheckStatus[],
  leftOut: number,
) {
  const to = Date.now();
  const lists = await Promise.all(
    chosen.map((c) => client.checkResults(c.checkId, { period, limit: CHART_RUNS_PER_CHECK }, { signal })),
  );
  const data: ChartData = {
    from: to - PERIOD_MS[period],
    to,
    leftOut,
    checks: lists.map((list, i) => ({
      checkId: chosen[i]!.checkId,
      checkName: chosen[i]!.checkName,
      results: list.data,
      summary: list.meta.summary,
    })),
  };
  store.getState().setChart(period, { state: 'ok', data, at: Date.now() });
}
