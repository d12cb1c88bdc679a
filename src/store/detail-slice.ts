// The open check: its results page (with the user's filters), a window of its
// most recent runs for the location breakdown, sparkline and metric values,
// its latest failed run, and which result is selected.
import type { StateCreator } from 'zustand/vanilla';
import type { CheckResult, CheckResultList, MetricCatalogue, Period, Trigger } from '../api/schemas.js';
import type { ConsoleState } from './create-store.js';
import type { ErrorInfo, Remote } from './types.js';
import { stepTo } from '../domain/step.js';

export const PERIOD_CYCLE: readonly Period[] = ['1h', '6h', '24h', '7d', '30d'];
export const RT_PRESETS: readonly (number | undefined)[] = [undefined, 200, 500, 1000];

export interface ResultFilters {
  period: Period;
  status?: 'success' | 'failed' | undefined;
  location?: string | undefined;
  triggeredBy?: Trigger | undefined;
  responseTimeMin?: number | undefined;
  sortBy: 'startedAt' | 'duration' | 'responseTime';
  sortOrder: 'asc' | 'desc';
  page: number;
}

export const DEFAULT_FILTERS: ResultFilters = {
  period: '24h',
  sortBy: 'startedAt',
  sortOrder: 'desc',
  page: 1,
};
export const PAGE_SIZE = 20;
export const WINDOW_SIZE = 100;

export interface Detail {
  checkId: string | null;
  filters: ResultFilters;
  page: Remote<CheckResultList>;
  window: Remote<CheckResultList>;
  latestFailed: CheckResult | null;
  selectedResultId: string | null;
  /** Open the latest failed result as soon as it is known (F on the board). */
  openFailedWhenLoaded: boolean;
  bodyScroll: number;
}

export interface DetailSlice {
  detail: Detail;
  catalogue: Remote<MetricCatalogue>;
  metricsType: string;
  metricsCategory: string | null;
  /** Makes this check the open one (its results load) without changing the view. */
  focusCheck(checkId: string, openFailed: boolean): void;
  openCheck(checkId: string, openFailed: boolean): void;
  setResultFilters(patch: Partial<ResultFilters>): void;
  applyResults(
    checkId: string,
    page: CheckResultList,
    window: CheckResultList,
    latestFailed: CheckResult | null,
  ): void;
  resultsFailed(checkId: string, error: ErrorInfo): void;
  selectResult(id: string | null): void;
  moveResult(delta: number | 'first' | 'last'): void;
  openResult(): void;
  stepResult(delta: 1 | -1): void;
  scrollBody(delta: number): void;
  setCatalogue(c: Remote<MetricCatalogue>): void;
  setMetricsScope(type: string, category: string | null): void;
}

const emptyDetail: Detail = {
  checkId: null,
  filters: DEFAULT_FILTERS,
  page: { state: 'idle' },
  window: { state: 'idle' },
  latestFailed: null,
  selectedResultId: null,
  openFailedWhenLoaded: false,
  bodyScroll: 0,
};

const keep = <T>(r: Remote<T>): T | undefined =>
  r.state === 'ok' || r.state === 'error' || r.state === 'loading' ? r.data : undefined;

export const createDetailSlice: StateCreator<ConsoleState, [], [], DetailSlice> = (set, get) => {
  const patch = (p: Partial<Detail>) => set({ detail: { ...get().detail, ...p } });
  const pageItems = () => keep(get().detail.page)?.data ?? [];
  return {
    detail: emptyDetail,
    catalogue: { state: 'idle' },
    metricsType: 'api',
    metricsCategory: null,
    focusCheck(checkId, openFailed) {
      const same = get().detail.checkId === checkId;
      set({
        detail: same
          ? { ...get().detail, openFailedWhenLoaded: openFailed }
          : {
              ...emptyDetail,
              checkId,
              openFailedWhenLoaded: openFailed,
              page: { state: 'loading' },
              window: { state: 'loading' },
            },
      });
    },
    openCheck(checkId, openFailed) {
      const same = get().detail.checkId === checkId;
      get().focusCheck(checkId, openFailed);
      get().pushView('check', { checkId });
      if (openFailed && same && get().detail.latestFailed) get().openResult();
    },
    setResultFilters: (p) =>
      patch({
        filters: { ...get().detail.filters, page: 1, ...p },
        page: { state: 'loading', data: keep(get().detail.page) },
      }),
    applyResults(checkId, page, window, latestFailed) {
      const d = get().detail;
      if (d.checkId !== checkId) return;
      const now = Date.now();
      const failing = get().checks[checkId]?.status === 'failing';
      let selected =
        d.selectedResultId && page.data.some((r) => r.id === d.selectedResultId) ? d.selectedResultId : null;
      if (!selected)
        selected =
          failing && latestFailed && page.data.some((r) => r.id === latestFailed.id)
            ? latestFailed.id
            : (page.data[0]?.id ?? null);
      patch({
        page: { state: 'ok', data: page, at: now },
        window: { state: 'ok', data: window, at: now },
        latestFailed,
        selectedResultId: selected,
      });
      if (d.openFailedWhenLoaded && latestFailed) {
        patch({
          openFailedWhenLoaded: false,
          selectedResultId: page.data.some((r) => r.id === latestFailed.id) ? latestFailed.id : selected,
        });
        get().pushView('result', { checkId, resultId: latestFailed.id });
      } else if (d.openFailedWhenLoaded) {
        patch({ openFailedWhenLoaded: false });
      }
    },
    resultsFailed(checkId, error) {
      const d = get().detail;
      if (d.checkId !== checkId) return;
      patch({
        page: { state: 'error', error, data: keep(d.page) },
        window: { state: 'error', error, data: keep(d.window) },
      });
    },
    selectResult: (id) => patch({ selectedResultId: id, bodyScroll: 0 }),
    moveResult(delta) {
      const id = stepTo(
        pageItems().map((r) => r.id),
        get().detail.selectedResultId,
        delta,
      );
      if (id !== undefined) patch({ selectedResultId: id, bodyScroll: 0 });
    },
    openResult() {
      const d = get().detail;
      if (d.checkId && d.selectedResultId)
        get().pushView('result', { checkId: d.checkId, resultId: d.selectedResultId });
    },
    stepResult(delta) {
      get().moveResult(delta);
      const d = get().detail;
      if (d.checkId && d.selectedResultId)
        get().replaceView('result', { checkId: d.checkId, resultId: d.selectedResultId });
    },
    scrollBody: (delta) => patch({ bodyScroll: Math.max(0, get().detail.bodyScroll + delta) }),
    setCatalogue: (catalogue) => set({ catalogue }),
    setMetricsScope: (metricsType, metricsCategory) =>
      set({ metricsType, metricsCategory, catalogue: { state: 'loading', data: keep(get().catalogue) } }),
  };
};

/** The result a result view shows: from the page, the latest failed run, or the window. */
export function findResult(d: Detail, id: string | undefined): CheckResult | undefined {
  if (!id) return undefined;
  return (
    keep(d.page)?.data.find((r) => r.id === id) ??
    (d.latestFailed?.id === id ? d.latestFailed : undefined) ??
    keep(d.window)?.data.find((r) => r.id === id)
  );
}

export { keep as remoteData };
