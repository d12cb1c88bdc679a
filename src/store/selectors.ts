// Derived views of the state. Selectors return stable references: the board's
// order is memoised (in the store's own `memos`, so two stores never share one)
// on the inputs it depends on, so zustand sees the same array until the checks,
// the filter, the sort or the scope change.
import type { CheckStatus, Dashboard } from '../api/schemas/index.js';
import { describeSweep, describeTiers } from '../domain/poll-tiers.js';
import { matchesFilter, parseFilter } from '../domain/filter.js';
import { compareChecks } from '../domain/order.js';
import { serviceTrouble } from '../domain/service-health.js';
import type { ConsoleState } from './state.js';
import type { Scope, View, ViewOf } from './types.js';

export type BoardRow =
  { kind: 'check'; id: string } | { kind: 'group'; id: string; name: string; count: number };

export interface BoardMemo {
  checks: ConsoleState['checks'];
  filterText: string;
  sortKey: ConsoleState['sortKey'];
  sortDesc: boolean;
  grouped: boolean;
  scope: Scope | null;
  /** The checks shown, in order. */
  sorted: CheckStatus[];
  order: string[];
  rows: BoardRow[];
}
// Past this many changed checks a full sort is as cheap as placing each one.
const PLACE_AT_MOST = 256;

function derive(s: ConsoleState): BoardMemo {
  const scope = selectScope(s);
  const memo = s.memos.board;
  const sameView =
    memo !== undefined &&
    memo.filterText === s.filterText &&
    memo.sortKey === s.sortKey &&
    memo.sortDesc === s.sortDesc &&
    memo.grouped === s.grouped &&
    memo.scope === scope;
  if (sameView && memo!.checks === s.checks) return memo!;
  const { filter } = parseFilter(s.filterText);
  const shown = (c: CheckStatus) => inScope(c, scope) && matchesFilter(c, filter);
  const compare = (a: CheckStatus, b: CheckStatus) => compareChecks(a, b, s.sortKey, s.sortDesc);
  const info = s.checksInfo;
  let sorted: CheckStatus[];
  if (sameView && info.base === memo!.checks && info.changed && info.changed.length <= PLACE_AT_MOST) {
    // A poll that changed a few checks: take them out and put them back in their place.
    const changed = new Set(info.changed);
    sorted = memo!.sorted.filter((c) => !changed.has(c.checkId));
    for (const id of info.changed) {
      const c = s.checks[id]!;
      if (shown(c)) sorted.splice(placeOf(sorted, c, compare), 0, c);
    }
  } else {
    sorted = Object.values(s.checks).filter(shown);
    sorted.sort(compare);
  }
  // t (grouped) wins over a dashboard's own grouping by type, so it can still be had.
  const by: ((c: CheckStatus) => [string, string]) | null = s.grouped
    ? (c) => [c.group?.id ?? '', c.group?.name ?? 'No group']
    : scope?.groupByType
      ? (c) => [c.checkType, c.checkType]
      : null;
  const rows = by ? groupRows(sorted, by) : sorted.map((c): BoardRow => ({ kind: 'check', id: c.checkId }));
  const order = by ? rows.filter((r) => r.kind === 'check').map((r) => r.id) : sorted.map((c) => c.checkId);
  s.memos.board = {
    checks: s.checks,
    filterText: s.filterText,
    sortKey: s.sortKey,
    sortDesc: s.sortDesc,
    grouped: s.grouped,
    scope,
    sorted,
    order,
    rows,
  };
  return s.memos.board;
}

/** Where `c` goes in `sorted` (binary search). */
function placeOf(sorted: CheckStatus[], c: CheckStatus, compare: (a: CheckStatus, b: CheckStatus) => number) {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compare(sorted[mid]!, c) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function inScope(c: CheckStatus, scope: Scope | null): boolean {
  return !scope || scope.checkIds.has(c.checkId) || (c.group !== null && scope.groupIds.has(c.group.id));
}

/** Rows under a heading per key; the key '' (no group) goes last. */
function groupRows(checks: CheckStatus[], keyOf: (c: CheckStatus) => [string, string]): BoardRow[] {
  const groups = new Map<string, { name: string; items: CheckStatus[] }>();
  for (const c of checks) {
    const [id, name] = keyOf(c);
    const g = groups.get(id) ?? { name, items: [] };
    g.items.push(c);
    groups.set(id, g);
  }
  return [...groups.entries()]
    .sort(([a, ga], [b, gb]) => (a === '' ? 1 : b === '' ? -1 : ga.name.localeCompare(gb.name)))
    .flatMap(([id, g]) => [
      { kind: 'group' as const, id: `group:${id}`, name: g.name, count: g.items.length },
      ...g.items.map((c) => ({ kind: 'check' as const, id: c.checkId })),
    ]);
}

export const selectCheckCount = (s: ConsoleState): number => s.checksInfo.size;
/** The most locations any check runs from: the width of the board's location marks. */
export const selectMaxLocations = (s: ConsoleState): number => s.checksInfo.maxLocations;
export const selectBoardOrder = (s: ConsoleState): string[] => derive(s).order;
export const selectBoardRows = (s: ConsoleState): BoardRow[] => derive(s).rows;
export const selectView = (s: ConsoleState): View => s.stack[s.stack.length - 1]!;

/** The reach the board is limited to: the nearest dashboard (or wall, or board) view's. */
export function selectScope(s: ConsoleState): Scope | null {
  for (let i = s.stack.length - 1; i >= 0; i--) {
    const v = s.stack[i]!;
    if (v.name === 'dashboard' || v.name === 'wall' || v.name === 'board') {
      if (v.scope) return v.scope;
    }
  }
  return null;
}

/** The open dashboard: the nearest dashboard view's. */
export function selectDashboard(s: ConsoleState): Dashboard | null {
  return s.stack.findLast((v): v is ViewOf<'dashboard'> => v.name === 'dashboard')?.dashboard ?? null;
}

/** The tiered polling of a large account in words, for `?` help (long) and the header (short); null when it does not apply. */
export function selectPollCycle(s: ConsoleState, form: 'long' | 'short'): string | null {
  const t = s.statusTiers;
  if (!t) return null;
  return form === 'long' ? describeTiers(t.plan, t.refreshMs) : describeSweep(t.plan, t.refreshMs);
}

/** How often statuses are polled while checks wait for their first run (see selectFirstRuns). */
export const WARM_UP_POLL_MS = 1_000;

/**
 * How many checks have never run while the console is young (within one refresh
 * interval of its first statuses): a service just started is running them now,
 * so they are "first runs in progress", not UNKNOWN, and polled every second.
 * A disabled or paused check is not counted: it will not run.
 */
export function selectFirstRuns(s: ConsoleState, now: number = s.now): number {
  if (s.firstStatusesAt === null || now - s.firstStatusesAt >= s.session.refreshMs) return 0;
  if (s.memos.firstRuns?.checks === s.checks) return s.memos.firstRuns.value;
  let value = 0;
  for (const c of Object.values(s.checks)) if (neverRan(c)) value++;
  s.memos.firstRuns = { checks: s.checks, value };
  return value;
}

/**
 * A check whose first run has not landed: unknown, with no last execution, and
 * scheduled (a disabled or paused check is not about to run: it stays UNKNOWN).
 */
export const neverRan = (c: CheckStatus): boolean =>
  c.status === 'unknown' && c.lastExecution === null && c.schedule.enabled;

/** "SERVICE DEGRADED: … since …" while the service says it is degraded, else null (a string: stable). */
export const selectServiceTrouble = (s: ConsoleState): string | null => serviceTrouble(s.service);
