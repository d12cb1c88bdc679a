// Derived views of the state. Selectors return stable references: the board's
// order is memoised on the inputs it depends on, so zustand sees the same array
// until the checks, the filter or the sort change.
import type { CheckStatus } from '../api/schemas.js';
import { matchesFilter, parseFilter } from '../domain/filter.js';
import { compareChecks } from '../domain/order.js';
import type { ConsoleState } from './create-store.js';
import type { Scope, View } from './types.js';

export type BoardRow =
  { kind: 'check'; id: string } | { kind: 'group'; id: string; name: string; count: number };

interface Memo {
  checks: ConsoleState['checks'];
  filterText: string;
  sortKey: ConsoleState['sortKey'];
  sortDesc: boolean;
  grouped: boolean;
  scope: Scope | null;
  order: string[];
  rows: BoardRow[];
}
let memo: Memo | undefined;

function derive(s: ConsoleState, scope: Scope | null = null): Memo {
  if (
    memo &&
    memo.checks === s.checks &&
    memo.filterText === s.filterText &&
    memo.sortKey === s.sortKey &&
    memo.sortDesc === s.sortDesc &&
    memo.grouped === s.grouped &&
    memo.scope === scope
  ) {
    return memo;
  }
  const { filter } = parseFilter(s.filterText);
  const visible = Object.values(s.checks).filter((c) => inScope(c, scope) && matchesFilter(c, filter));
  visible.sort((a, b) => compareChecks(a, b, s.sortKey, s.sortDesc));
  const rows = s.grouped
    ? groupRows(visible)
    : visible.map((c): BoardRow => ({ kind: 'check', id: c.checkId }));
  const order = rows.filter((r) => r.kind === 'check').map((r) => r.id);
  memo = {
    checks: s.checks,
    filterText: s.filterText,
    sortKey: s.sortKey,
    sortDesc: s.sortDesc,
    grouped: s.grouped,
    scope,
    order,
    rows,
  };
  return memo;
}

export function inScope(c: CheckStatus, scope: Scope | null): boolean {
  return !scope || scope.checkIds.has(c.checkId) || (c.group !== null && scope.groupIds.has(c.group.id));
}

function groupRows(checks: CheckStatus[]): BoardRow[] {
  const groups = new Map<string, { name: string; items: CheckStatus[] }>();
  for (const c of checks) {
    const id = c.group?.id ?? '';
    const g = groups.get(id) ?? { name: c.group?.name ?? 'No group', items: [] };
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

// Counted once per record of checks, not on every store update (a 10,000-key count
// in a selector ran on every key press and clock tick).
const counts = new WeakMap<ConsoleState['checks'], { total: number; maxLocations: number }>();
function countChecks(checks: ConsoleState['checks']) {
  let found = counts.get(checks);
  if (!found) {
    found = { total: 0, maxLocations: 0 };
    for (const id in checks) {
      found.total++;
      found.maxLocations = Math.max(found.maxLocations, checks[id]!.locations.length);
    }
    counts.set(checks, found);
  }
  return found;
}

export const selectCheckCount = (s: ConsoleState): number => countChecks(s.checks).total;
/** The most locations any check runs from: the width of the board's location marks. */
export const selectMaxLocations = (s: ConsoleState): number => countChecks(s.checks).maxLocations;
export const selectBoardOrder = (s: ConsoleState): string[] => derive(s, s.scope).order;
export const selectBoardRows = (s: ConsoleState): BoardRow[] => derive(s, s.scope).rows;
export const selectCheck = (id: string | null) => (s: ConsoleState) => (id ? s.checks[id] : undefined);
export const selectSelectedCheck = (s: ConsoleState) => (s.selectedId ? s.checks[s.selectedId] : undefined);
export const selectView = (s: ConsoleState): View => s.stack[s.stack.length - 1]!;
export const selectViewName = (s: ConsoleState) => selectView(s).name;
