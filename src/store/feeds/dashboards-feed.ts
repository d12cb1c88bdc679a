// Dashboards: the list while it is on screen (tags and privacy go to the API),
// and the runs behind an open dashboard's metrics charts. The charts' cost is
// bounded: one results request per check, for at most CHART_MAX_CHECKS checks
// (by name, so the bars stay put) and each distinct period, at most once a minute.
import type { CheckStatus, Period } from '../../api/schemas/index.js';
import { chartPeriods, effectiveRefreshMs } from '../../domain/dashboard-widgets.js';
import { compareChecks } from '../../domain/order.js';
import { PERIOD_MS } from '../../domain/period.js';
import type { ConsoleState } from '../state.js';
import { DASHBOARDS_PAGE_SIZE, type ChartData } from '../dashboards-slice.js';
import type { Feed, FeedContext } from '../poller.js';
import { toErrorInfo } from '../poller.js';
import { inScope, selectDashboard, selectScope, selectView } from '../selectors.js';
import { pagedListFeed } from './paged-list-feed.js';

export const CHART_MAX_CHECKS = 10;
export const CHART_RUNS_PER_CHECK = 100;
const CHART_MIN_INTERVAL_MS = 60_000;

export const dashboardsFeed: Feed = pagedListFeed({
  key: 'dashboards',
  list: 'dashboards',
  active: (s) => selectView(s).name === 'dashboards',
  fetch: (client, { page, tags, isPrivate }, signal) =>
    client.dashboards(
      { page, limit: DASHBOARDS_PAGE_SIZE, tags: tags.length ? tags : undefined, isPrivate },
      { signal },
    ),
});

export interface ChartChecksMemo {
  checks: unknown;
  scope: unknown;
  value: { chosen: CheckStatus[]; leftOut: number };
}

/** The checks a chart reads: the dashboard's by name, at most CHART_MAX_CHECKS. */
export function chartChecks(s: ConsoleState): { chosen: CheckStatus[]; leftOut: number } {
  // The poller asks for the target on every change of the store: sort only when the checks did change.
  const scope = selectScope(s);
  const memo = s.memos.chartChecks;
  if (memo?.checks === s.checks && memo.scope === scope) return memo.value;
  const all = Object.values(s.checks)
    .filter((c) => inScope(c, scope))
    .sort((a, b) => compareChecks(a, b, 'name'));
  const value = {
    chosen: all.slice(0, CHART_MAX_CHECKS),
    leftOut: Math.max(0, all.length - CHART_MAX_CHECKS),
  };
  s.memos.chartChecks = { checks: s.checks, scope, value };
  return value;
}

/** The dashboard on top, or null. */
const topDashboard = (s: ConsoleState) => {
  const top = selectView(s);
  return top.name === 'dashboard' ? top.dashboard : null;
};

const chartTarget = (s: ConsoleState) => {
  const d = topDashboard(s);
  return d
    ? `${d.id}|${chartPeriods(d).join(',')}|${chartChecks(s)
        .chosen.map((c) => c.checkId)
        .join(',')}`
    : '';
};

export const dashboardChartsFeed: Feed = {
  key: 'dashboard-charts',
  active: (s) => {
    const d = topDashboard(s);
    return !s.session.isPublic && d !== null && chartPeriods(d).length > 0;
  },
  target: chartTarget,
  intervalMs: (s) => effectiveRefreshMs(CHART_MIN_INTERVAL_MS, selectDashboard(s)),
  async run(ctx) {
    const s = ctx.store.getState();
    const dashboard = topDashboard(s);
    if (!dashboard) return;
    const { chosen, leftOut } = chartChecks(s);
    let failure: unknown;
    for (const period of chartPeriods(dashboard)) {
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
  { client, store, signal, now }: FeedContext,
  period: Period,
  chosen: CheckStatus[],
  leftOut: number,
) {
  const to = now();
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
      checkType: chosen[i]!.checkType,
      results: list.data,
      summary: list.meta.summary,
    })),
  };
  store.getState().setChart(period, { state: 'ok', data, at: now() });
}
