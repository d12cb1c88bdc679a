// Dashboards: the list (tags and privacy filtered by the API, paged), the open
// dashboard with the scope it puts on the board, and the data of its charts.
import type { StateCreator } from 'zustand/vanilla';
import type { Dashboard, DashboardList, Period } from '../api/schemas.js';
import { checkListOptions } from '../domain/dashboard-widgets.js';
import type { ChartCheck } from '../domain/dashboard-chart.js';
import type { ConsoleState } from './create-store.js';
import { selectBoardOrder } from './selectors.js';
import type { Remote, Scope } from './types.js';
import { stepTo } from '../domain/step.js';

export const DASHBOARDS_PAGE_SIZE = 20;

export interface DashboardsQuery {
  page: number;
  tags: string[];
  /** undefined: both private and public. */
  isPrivate: boolean | undefined;
}

export interface ChartData {
  from: number;
  to: number;
  checks: ChartCheck[];
  /** How many of the dashboard's checks the chart leaves out (request cost is bounded). */
  leftOut: number;
}

export interface DashboardsSlice {
  dashboards: Remote<DashboardList>;
  dashboardsQuery: DashboardsQuery;
  /** The tag filter as typed, applied (sent to the API) on enter. */
  dashboardTagsText: string;
  dashboardTagsOpen: boolean;
  selectedDashboardId: string | null;
  /** The dashboard on screen, or null. */
  dashboard: Dashboard | null;
  /** Results behind the open dashboard's metrics charts, by period. */
  charts: Partial<Record<Period, Remote<ChartData>>>;
  setDashboards(r: Remote<DashboardList>): void;
  moveDashboard(delta: number | 'first' | 'last'): void;
  dashboardsPageBy(delta: number): void;
  cyclePrivacy(): void;
  openDashboardTags(): void;
  setDashboardTags(text: string): void;
  closeDashboardTags(clear: boolean): void;
  openDashboard(): void;
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

export const createDashboardsSlice: StateCreator<ConsoleState, [], [], DashboardsSlice> = (set, get) => {
  const items = () => {
    const r = get().dashboards;
    return r.state === 'ok' || r.state === 'error' ? (r.data?.data ?? []) : [];
  };
  const query = (patch: Partial<DashboardsQuery>) =>
    set({ dashboardsQuery: { ...get().dashboardsQuery, ...patch } });
  return {
    dashboards: { state: 'idle' },
    dashboardsQuery: { page: 1, tags: [], isPrivate: undefined },
    dashboardTagsText: '',
    dashboardTagsOpen: false,
    selectedDashboardId: null,
    dashboard: null,
    charts: {},
    setDashboards(r) {
      set({ dashboards: r });
      const list = r.state === 'ok' ? r.data.data : [];
      if (r.state === 'ok' && !list.some((d) => d.id === get().selectedDashboardId))
        set({ selectedDashboardId: list[0]?.id ?? null });
    },
    moveDashboard(delta) {
      const id = stepTo(
        items().map((d) => d.id),
        get().selectedDashboardId,
        delta,
      );
      if (id !== undefined) set({ selectedDashboardId: id });
    },
    dashboardsPageBy(delta) {
      const r = get().dashboards;
      const total = r.state === 'ok' ? r.data.meta.totalPages : 1;
      const page = Math.min(Math.max(1, total), Math.max(1, get().dashboardsQuery.page + delta));
      if (page !== get().dashboardsQuery.page) query({ page });
    },
    cyclePrivacy() {
      const now = get().dashboardsQuery.isPrivate;
      query({ page: 1, isPrivate: now === undefined ? true : now ? false : undefined });
    },
    openDashboardTags: () => set({ dashboardTagsOpen: true }),
    setDashboardTags: (text) => set({ dashboardTagsText: text }),
    closeDashboardTags(clear) {
      const text = clear ? '' : get().dashboardTagsText;
      set({ dashboardTagsOpen: false, dashboardTagsText: text });
      const tags = parseTags(text);
      if (tags.join(',') !== get().dashboardsQuery.tags.join(',')) query({ page: 1, tags });
    },
    openDashboard() {
      const d = items().find((x) => x.id === get().selectedDashboardId);
      if (!d) return;
      get().showDashboard(d);
      get().pushView('dashboard', { dashboardId: d.id });
    },
    showDashboard(d) {
      const same = sameReach(get().dashboard, d);
      set({ dashboard: d, ...(same ? {} : { scope: scopeOf(d), charts: {} }) });
      // The selection moves into the dashboard when it was on a check outside it.
      const order = selectBoardOrder(get());
      if (!order.includes(get().selectedId ?? '')) set({ selectedId: order[0] ?? null });
    },
    setChart: (period, r) => set({ charts: { ...get().charts, [period]: r } }),
  };
};
