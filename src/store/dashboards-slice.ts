// Dashboards: the list's tags and privacy (the list itself is a paged list:
// paged-list.ts), opening a dashboard (its view holds it and the scope it puts
// on the board), and the data of its charts.
import type { StateCreator } from 'zustand/vanilla';
import type { Dashboard, Period } from '../api/schemas/index.js';
import { checkListOptions } from '../domain/dashboard-widgets.js';
import type { ChartCheck } from '../domain/dashboard-chart.js';
import type { ConsoleState } from './state.js';
import { listItems } from './paged-list.js';
import { selectBoardOrder, selectDashboard } from './selectors.js';
import type { Remote, Scope } from './types.js';

export const DASHBOARDS_PAGE_SIZE = 20;

export interface ChartData {
  from: number;
  to: number;
  checks: ChartCheck[];
  /** How many of the dashboard's checks the chart leaves out (request cost is bounded). */
  leftOut: number;
}

export interface DashboardsSlice {
  /** The tag filter as typed (focus 'filter' on the dashboards view), applied (sent to the API) on enter. */
  dashboardTagsText: string;
  /** Results behind the open dashboard's metrics charts, by period. */
  charts: Partial<Record<Period, Remote<ChartData>>>;
  cyclePrivacy(): void;
  openDashboardTags(): void;
  setDashboardTags(text: string): void;
  closeDashboardTags(clear: boolean): void;
  openDashboard(): void;
  /** The open dashboard (a newer answer of it, or a public dashboard's first). */
  showDashboard(d: Dashboard): void;
  setChart(period: Period, r: Remote<ChartData>): void;
}

/** A dashboard's reach: its checks and the checks of its groups (shared with `checkwall wall`). */
export function scopeOf(d: Dashboard): Scope {
  return {
    name: d.name,
    checkIds: new Set(d.checkIds),
    groupIds: new Set(d.checkGroupIds),
    groupByType: checkListOptions(d).groupByType,
  };
}

export function parseTags(text: string): string[] {
  return [...new Set(text.split(/[\s,]+/).filter(Boolean))];
}

const sameReach = (a: Dashboard | null, b: Dashboard) =>
  a !== null &&
  a.id === b.id &&
  JSON.stringify([a.checkIds, a.checkGroupIds, a.widgets]) ===
    JSON.stringify([b.checkIds, b.checkGroupIds, b.widgets]);

export const createDashboardsSlice: StateCreator<ConsoleState, [], [], DashboardsSlice> = (set, get) => ({
  dashboardTagsText: '',
  charts: {},
  cyclePrivacy() {
    const now = get().lists.dashboards.query.isPrivate;
    get().queryList('dashboards', { isPrivate: now === undefined ? true : now ? false : undefined });
  },
  openDashboardTags: () => set({ focus: 'filter' }),
  setDashboardTags: (text) => set({ dashboardTagsText: text }),
  closeDashboardTags(clear) {
    const text = clear ? '' : get().dashboardTagsText;
    set({ focus: 'list', dashboardTagsText: text });
    const tags = parseTags(text);
    if (tags.join(',') !== get().lists.dashboards.query.tags.join(','))
      get().queryList('dashboards', { tags });
  },
  openDashboard() {
    const list = get().lists.dashboards;
    const d = listItems(list).find((x) => x.id === list.selectedId);
    if (!d) return;
    get().pushView({ name: 'dashboard', dashboard: d, scope: scopeOf(d) });
    keepSelectionInScope(get, set);
  },
  showDashboard(d) {
    const open = selectDashboard(get());
    const same = sameReach(open, d);
    get().updateView('dashboard', { dashboard: d, ...(same ? {} : { scope: scopeOf(d) }) });
    if (!same) set({ charts: {} });
    keepSelectionInScope(get, set);
  },
  setChart: (period, r) => set({ charts: { ...get().charts, [period]: r } }),
});

/** The selection moves into the dashboard when it was on a check outside it. */
function keepSelectionInScope(get: () => ConsoleState, set: (p: Partial<ConsoleState>) => void) {
  const order = selectBoardOrder(get());
  if (!order.includes(get().selectedId ?? '')) set({ selectedId: order[0] ?? null });
}
