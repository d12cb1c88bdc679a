// Dashboards: the list's tags and privacy (the list itself is a paged list:
// paged-list.ts), opening a dashboard (its view holds it and the scope it puts
// on the board), and the data of its charts.
import type { StateCreator } from 'zustand/vanilla';
import type { Dashboard } from '../api/schemas/index.js';
import { checkListOptions } from '../domain/dashboard-widgets.js';
import type { ConsoleState, DashboardsSlice } from './state.js';
import { selectedItem } from './paged-list.js';
import { selectBoardOrder, selectDashboard } from './selectors.js';
import type { Scope } from './types.js';

export type { ChartData, DashboardsSlice } from './state.js';

export const DASHBOARDS_PAGE_SIZE = 20;

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
    const d = selectedItem(get().lists.dashboards);
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
