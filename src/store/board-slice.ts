// The board: every check's status, the account summary, and how the list is
// filtered, sorted, grouped and where the selection is (by check id, so it
// survives refreshes and re-sorts).
import type { StateCreator } from 'zustand/vanilla';
import { sameJson } from '../domain/equal.js';
import { parseFilter } from '../domain/filter.js';
import { SORT_KEYS } from '../domain/order.js';
import type { ConsoleState, BoardSlice } from './state.js';
import { EMPTY_INFO, mergeStatuses, patchedList } from './records.js';
import { selectBoardOrder } from './selectors.js';
import { stepTo } from '../domain/step.js';

export type { StatusChangeSet, BoardSlice } from './state.js';

type Set = Parameters<StateCreator<ConsoleState, [], [], BoardSlice>>[0];
type Get = () => ConsoleState;

export const createBoardSlice: StateCreator<ConsoleState, [], [], BoardSlice> = (set, get) => ({
  checks: {},
  checksInfo: EMPTY_INFO,
  summary: null,
  service: null,
  locationOutages: [],
  statusesAt: null,
  firstStatusesAt: null,
  filterText: '',
  filterErrors: [],
  sortKey: 'status',
  sortDesc: false,
  grouped: false,
  selectedId: null,
  selectionMoved: false,
  turnedFailingAt: {},
  newlyFailing: [],
  statusTiers: null,

  ...statusActions(set, get),
  ...viewActions(set, get),
});

/** Statuses arriving from the poller: only what changed is set. */
function statusActions(set: Set, get: Get) {
  return {
    applyStatusChanges({ changed, removed, summary, service, locationOutages, tiers }, at) {
      const s = get();
      if (service !== undefined) s.applyService(service);
      if (locationOutages !== undefined) s.applyLocationOutages(locationOutages);
      const next = tiers?.plan.tiered ? tiers : null;
      if (
        next?.plan.sweepEvery !== s.statusTiers?.plan.sweepEvery ||
        next?.refreshMs !== s.statusTiers?.refreshMs
      )
        set({ statusTiers: next });
      s.applyStatuses(patchedList(s.checks, changed, removed), summary, at);
    },
    applyService(service) {
      const now = get().service;
      if (now === service || (now && service && sameJson(now, service))) return;
      set({ service });
    },
    applyLocationOutages(outages) {
      const now = get().locationOutages;
      if (now.length === 0 && outages.length === 0) return;
      if (sameJson(now, outages)) return;
      set({ locationOutages: outages });
    },
    applyStatuses(list, summary, at) {
      const s = get();
      const merged = mergeStatuses(
        s.checks,
        s.checksInfo,
        list,
        s.turnedFailingAt,
        at,
        s.statusesAt === null,
      );
      // Only what changed is set: an unchanged poll leaves the checks, their order and every row as they were.
      set({
        ...(merged.checks === s.checks ? {} : { checks: merged.checks, checksInfo: merged.info }),
        ...(merged.turned === s.turnedFailingAt ? {} : { turnedFailingAt: merged.turned }),
        summary: summary && s.summary && sameJson(summary, s.summary) ? s.summary : summary,
        statusesAt: at,
        firstStatusesAt: s.firstStatusesAt ?? at,
        newlyFailing:
          merged.newlyFailing.length === 0 && s.newlyFailing.length === 0
            ? s.newlyFailing
            : merged.newlyFailing,
      });
      ensureSelection(get, set);
    },
  } satisfies Partial<BoardSlice>;
}

/** How the board is looked at: its filter, sort, grouping and selection. */
function viewActions(set: Set, get: Get) {
  return {
    setFilter(text) {
      set({ filterText: text, filterErrors: parseFilter(text).errors });
      ensureSelection(get, set);
      // Filtering is how one finds a check: what it lands on stays selected when the filter is cleared.
      if (text !== '' && get().selectedId !== null) set({ selectionMoved: true });
    },
    openFilter: () => set({ focus: 'filter' }),
    closeFilter(clear) {
      if (clear) set({ filterText: '', filterErrors: [] });
      set({ focus: 'list' });
      ensureSelection(get, set);
    },
    cycleSort() {
      const i = SORT_KEYS.indexOf(get().sortKey);
      set({ sortKey: SORT_KEYS[(i + 1) % SORT_KEYS.length]!, sortDesc: false });
      ensureSelection(get, set);
    },
    reverseSort() {
      set({ sortDesc: !get().sortDesc });
      ensureSelection(get, set);
    },
    toggleGrouping() {
      set({ grouped: !get().grouped });
      ensureSelection(get, set);
    },
    select: (id) => set({ selectedId: id, selectionMoved: true }),
    moveSelection(delta) {
      const id = stepTo(selectBoardOrder(get()), get().selectedId, delta);
      if (id !== undefined) set({ selectedId: id, selectionMoved: true });
    },
    nextFailing() {
      const s = get();
      const order = selectBoardOrder(s);
      const start = order.indexOf(s.selectedId ?? '');
      for (let i = 1; i <= order.length; i++) {
        const id = order[(start + i + order.length) % order.length]!;
        if (s.checks[id]?.status === 'failing') return set({ selectedId: id, selectionMoved: true });
      }
    },
  } satisfies Partial<BoardSlice>;
}

/**
 * Once the user has moved it, the selection stays on its check while that check
 * is listed (across refreshes and re-sorts); before that, and when its check is
 * gone, it is on the first row: a console opened on a service that is still
 * warming up points at the worst check once there is one, not at the check that
 * happened to sort first while everything was unknown.
 */
function ensureSelection(get: () => ConsoleState, set: (p: Partial<ConsoleState>) => void) {
  const order = selectBoardOrder(get());
  const { selectedId: current, selectionMoved } = get();
  if (selectionMoved && current && order.includes(current)) return;
  const top = order[0] ?? null;
  if (top !== current) set({ selectedId: top });
}
