// The open check's data: its results page (as the check view's filters ask),
// a window of its most recent runs for the location breakdown, sparkline and
// metric values, and its latest failed run. Which check is open, its filters and
// the selected result belong to the check view (types.ts: View).
import type { StateCreator } from 'zustand/vanilla';
import type { CheckResult, Period } from '../api/schemas/index.js';
import type { ConsoleState, Detail, DetailSlice } from './state.js';
import type { Remote, ResultFilters, View, ViewOf } from './types.js';
import { stepTo } from '../domain/step.js';

export type { Detail, DetailSlice } from './state.js';

export type { ResultFilters } from './types.js';

export const PERIOD_CYCLE: readonly Period[] = ['1h', '6h', '24h', '7d', '30d'];
export const RT_PRESETS: readonly (number | undefined)[] = [undefined, 200, 500, 1000];

export const DEFAULT_FILTERS: ResultFilters = {
  period: '24h',
  sortBy: 'startedAt',
  sortOrder: 'desc',
  page: 1,
};
export const PAGE_SIZE = 20;
export const WINDOW_SIZE = 100;

const emptyDetail: Detail = {
  checkId: null,
  page: { state: 'idle' },
  window: { state: 'idle' },
  latestFailed: null,
  opened: null,
};

const keep = <T>(r: Remote<T>): T | undefined =>
  r.state === 'ok' || r.state === 'error' || r.state === 'loading' ? r.data : undefined;

/** The top view when it is a `name` view. */
export function topView<N extends View['name']>(s: ConsoleState, name: N): ViewOf<N> | undefined {
  const top = s.stack[s.stack.length - 1];
  return top?.name === name ? (top as ViewOf<N>) : undefined;
}

/** The check view of `checkId` nearest the top (a result view sits on its check's). */
const checkView = (s: ConsoleState, checkId: string) =>
  s.stack.findLast((v): v is ViewOf<'check'> => v.name === 'check' && v.checkId === checkId);

type Get = () => ConsoleState;
/** Changes the open check's results (set of the slice). */
type Patch = (p: Partial<Detail>) => void;
const pageIds = (get: Get) => (keep(get().detail.page)?.data ?? []).map((r) => r.id);

/**
 * With results at hand, the check view's selection stays on its result while
 * listed, else goes to the latest failure (of a failing check) or the first
 * row; and the latest failure opens when the view asked for it (F).
 */
function settle(get: Get, patch: Patch, checkId: string) {
  const view = checkView(get(), checkId);
  if (!view) return;
  const { latestFailed } = get().detail;
  const ids = pageIds(get);
  const failing = get().checks[checkId]?.status === 'failing';
  const failedListed = latestFailed !== null && ids.includes(latestFailed.id);
  let selected = view.selectedResultId && ids.includes(view.selectedResultId) ? view.selectedResultId : null;
  selected ??= failing && failedListed ? latestFailed.id : (ids[0] ?? null);
  if (view.openFailed && failedListed) selected = latestFailed.id;
  const picked = view.pickResultId !== undefined && ids.includes(view.pickResultId);
  if (picked) selected = view.pickResultId!;
  // F on a check with no failed run: say so, rather than open the check as if asked to.
  const notice =
    view.openFailed && !latestFailed ? 'no failed run in the last 30 days: nothing to open' : view.notice;
  get().updateView('check', {
    selectedResultId: selected,
    openFailed: false,
    notice,
    ...(picked ? { pickResultId: undefined } : {}),
  });
  if (view.openFailed && latestFailed) {
    keepOpened(get, patch, latestFailed);
    get().pushView({ name: 'result', checkId, resultId: latestFailed.id, scroll: 0 });
  }
}

/**
 * The result a result view opens, kept beside the lists: a finished run does not change,
 * and newer runs push it off the page and the window while it is read (a run opened from
 * a later page went within one poll: "This result is no longer in the list").
 */
function keepOpened(get: Get, patch: Patch, result: CheckResult | undefined) {
  if (result && get().detail.opened?.id !== result.id) patch({ opened: result });
}

/** Moving through the results: the check view's selection, the result shown, its scroll. */
function resultMoves(
  get: Get,
  patch: Patch,
): Pick<DetailSlice, 'moveResult' | 'openResult' | 'stepResult' | 'scrollBody'> {
  return {
    moveResult(delta) {
      const view = topView(get(), 'check');
      const id = view && stepTo(pageIds(get), view.selectedResultId, delta);
      if (id !== undefined) get().updateView('check', { selectedResultId: id });
    },
    openResult() {
      const view = topView(get(), 'check');
      if (!view?.selectedResultId) return;
      keepOpened(get, patch, findResult(get().detail, view.selectedResultId));
      get().pushView({ name: 'result', checkId: view.checkId, resultId: view.selectedResultId, scroll: 0 });
    },
    stepResult(delta) {
      const result = topView(get(), 'result');
      const below = result && checkView(get(), result.checkId);
      const id = below && stepTo(pageIds(get), below.selectedResultId, delta);
      if (!result || id === undefined || id === null) return;
      keepOpened(get, patch, findResult(get().detail, id));
      get().updateView('check', { selectedResultId: id });
      get().replaceView({ ...result, resultId: id, scroll: 0 });
    },
    scrollBody(delta, end) {
      const top = get().stack[get().stack.length - 1];
      // From where the view stands: a scroll left past a shorter text's end counts from its end.
      if (top?.name === 'result' || top?.name === 'metrics')
        get().updateView(top.name, { scroll: Math.max(0, Math.min(end, Math.min(top.scroll, end) + delta)) });
    },
  };
}

export const createDetailSlice: StateCreator<ConsoleState, [], [], DetailSlice> = (set, get) => {
  const patch = (p: Partial<Detail>) => set({ detail: { ...get().detail, ...p } });
  /** Makes `checkId`'s results the ones loaded (kept when they already are). */
  const loadResultsOf = (checkId: string) => {
    if (get().detail.checkId !== checkId)
      set({ detail: { ...emptyDetail, checkId, page: { state: 'loading' }, window: { state: 'loading' } } });
  };
  return {
    detail: emptyDetail,
    catalogue: { state: 'idle' },
    metricsType: 'api',
    metricsCategory: null,
    openCheck(checkId, openFailed) {
      const loaded = get().detail.checkId === checkId;
      loadResultsOf(checkId);
      const filters = loaded ? (checkView(get(), checkId)?.filters ?? DEFAULT_FILTERS) : DEFAULT_FILTERS;
      get().pushView({ name: 'check', checkId, filters, selectedResultId: null, openFailed });
      if (loaded && get().detail.page.state === 'ok') settle(get, patch, checkId);
    },
    openMetrics(checkId) {
      if (checkId) loadResultsOf(checkId);
      const below = checkId ? checkView(get(), checkId) : undefined;
      get().pushView({ name: 'metrics', checkId, filters: below?.filters ?? DEFAULT_FILTERS, scroll: 0 });
    },
    setResultFilters(p) {
      const view = topView(get(), 'check');
      if (!view) return;
      get().updateView('check', { filters: { ...view.filters, page: 1, ...p } });
      // Another period is other runs: the last period's window is not drawn as this one's.
      const window =
        p.period && p.period !== view.filters.period ? { state: 'loading' as const } : get().detail.window;
      patch({ page: { state: 'loading', data: keep(get().detail.page) }, window });
    },
    applyResults(checkId, page, window, latestFailed, at) {
      if (get().detail.checkId !== checkId) return;
      patch({
        page: { state: 'ok', data: page, at },
        window: { state: 'ok', data: window, at },
        latestFailed,
      });
      settle(get, patch, checkId);
    },
    resultsFailed(checkId, error) {
      const d = get().detail;
      if (d.checkId !== checkId) return;
      patch({
        page: { state: 'error', error, data: keep(d.page) },
        window: { state: 'error', error, data: keep(d.window) },
      });
    },
    ...resultMoves(get, patch),
    setCatalogue: (catalogue) => set({ catalogue }),
    setMetricsScope(metricsType, metricsCategory) {
      set({ metricsType, metricsCategory, catalogue: { state: 'loading', data: keep(get().catalogue) } });
      // Another catalogue starts at its top, not at the line the last one was scrolled to.
      if (topView(get(), 'metrics')) get().updateView('metrics', { scroll: 0 });
    },
  };
};

/** The result a result view shows: from the page, the latest failed run, or the window. */
export function findResult(d: Detail, id: string | undefined): CheckResult | undefined {
  if (!id) return undefined;
  return (
    keep(d.page)?.data.find((r) => r.id === id) ??
    (d.latestFailed?.id === id ? d.latestFailed : undefined) ??
    keep(d.window)?.data.find((r) => r.id === id) ??
    (d.opened?.id === id ? d.opened : undefined)
  );
}

export { keep as remoteData };
