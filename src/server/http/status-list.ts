// GET /v1/check-statuses: filter, sort and page the account's check statuses.
import type { CheckStatus, CheckStatusesQuerySchema, StatusSummary } from '../../api/schemas/index.js';
import { checkValue, compareValues } from '../../domain/order.js';
import { summarize } from '../../domain/summary.js';
import type { z } from 'zod';
import type { AccountConfig } from '../config/schema.js';

export type Query = z.output<typeof CheckStatusesQuerySchema>;

export function filterStatuses(all: readonly CheckStatus[], q: Query): CheckStatus[] {
  return all.filter((s) => passes(s, q));
}

function passes(s: CheckStatus, q: Query): boolean {
  if (q.status && s.status !== q.status) return false;
  if (q.checkType && s.checkType !== q.checkType) return false;
  if (q.group && s.group?.id !== q.group) return false;
  if (q.tags && !q.tags.every((t) => s.tags.includes(t))) return false;
  if (q.location && !s.locations.some((l) => l.id === q.location)) return false;
  if (q.hasIncident !== undefined && (s.currentIncident !== null) !== q.hasIncident) return false;
  if (!within(s.availability.percentage, q.availabilityMin, q.availabilityMax)) return false;
  if (!within(s.performance.averageResponseTime, q.responseTimeMin, q.responseTimeMax)) return false;
  if (q.trend && s.performance.trend !== q.trend) return false;
  return true;
}

/** A bound on a value that is unknown (null) excludes the check: it cannot be shown to meet it. */
function within(value: number | null, min: number | undefined, max: number | undefined): boolean {
  if (min === undefined && max === undefined) return true;
  if (value === null) return false;
  return (min === undefined || value >= min) && (max === undefined || value <= max);
}

/** Each check's place by name, then id: the order of checks that sort alike. */
export type NameOrder = ReadonlyMap<string, number>;

const nameOrders = new WeakMap<AccountConfig, NameOrder>();
// The collation of String.prototype.localeCompare, made once.
const collate = new Intl.Collator().compare;

/** The account's name order, sorted once per config: collating every name is not free. */
export function nameOrder(account: AccountConfig): NameOrder {
  let order = nameOrders.get(account);
  if (!order) {
    const byName = [...account.checks].sort((a, b) => collate(a.name, b.name) || collate(a.id, b.id));
    nameOrders.set(account, (order = new Map(byName.map((c, i) => [c.id, i]))));
  }
  return order;
}

// A status is replaced, never changed, when its check's figures move: its last
// execution's time is parsed once, not at every sort of the list it stays in.
const executedAt = new WeakMap<CheckStatus, number | null>();
function lastExecutedAt(s: CheckStatus): number | null {
  let at = executedAt.get(s);
  if (at === undefined)
    executedAt.set(s, (at = s.lastExecution ? Date.parse(s.lastExecution.timestamp) : null));
  return at;
}

/** A status with its sort key and its place by name, each read once. */
export interface Keyed {
  s: CheckStatus;
  k: number | string | null;
  place: number;
}

function keyer(q: Query, places: NameOrder): (s: CheckStatus) => Keyed {
  return (s) => ({
    s,
    k: checkValue(s, q.sortBy, lastExecutedAt),
    place: places.get(s.checkId) ?? Number.MAX_SAFE_INTEGER,
  });
}

/** The query's order of keyed statuses: the key, then the place by name; unknowns last. */
function comparator(q: Query): (a: Keyed, b: Keyed) => number {
  const direction = q.sortOrder ?? (q.sortBy === 'name' ? 'asc' : 'desc');
  // The API's status order rises with severity (desc, its default, is worst first);
  // SEVERITY ranks worst first.
  const rising = (direction === 'asc') !== (q.sortBy === 'status');
  const sign = rising ? 1 : -1;
  return (a, b) => compareValues(a.k, b.k, sign) || a.place - b.place;
}

/**
 * Sorts by the query's key, checks that sort alike by name then id, unknowns last.
 * Each key is read once, not once per comparison (BENCHMARKS.md, "Claims and keys").
 */
export function sortStatuses(items: readonly CheckStatus[], q: Query, order?: NameOrder): CheckStatus[] {
  const keyed = items.map(keyer(q, order ?? namePlaces(items)));
  return keyed.sort(comparator(q)).map((x) => x.s);
}

/** An answer of the list: what it shows, and what the next one is built from. */
export interface BuiltList {
  chosen: CheckStatus[];
  summary: StatusSummary;
  /** The statuses it was built from (the account's, in config order), and the chosen ones keyed, in order. */
  basis: { account: AccountConfig; all: readonly CheckStatus[]; keyed: Keyed[] };
}

/**
 * The answer to `q` from the account's statuses (`all`, in config order). From
 * `previous`, the last answer to the same query, when it was built from the same
 * config: only the statuses replaced since (a status is replaced, never changed)
 * are filtered, keyed and sorted, then merged into its order: between builds only a
 * few statuses move (BENCHMARKS.md, "Claims and keys").
 */
export function buildList(
  all: readonly CheckStatus[],
  q: Query,
  account: AccountConfig,
  previous?: BuiltList,
): BuiltList {
  const key = keyer(q, nameOrder(account));
  const compare = comparator(q);
  const basis = previous?.basis;
  const own = all.slice();
  let keyed: Keyed[];
  if (basis && basis.account === account && basis.all.length === all.length) {
    const gone = new Set<CheckStatus>();
    const added: Keyed[] = [];
    for (let i = 0; i < all.length; i++) {
      const now = all[i]!;
      const then = basis.all[i]!;
      if (now === then) continue;
      gone.add(then);
      if (passes(now, q)) added.push(key(now));
    }
    keyed = gone.size === 0 ? basis.keyed : merge(basis.keyed, gone, added.sort(compare), compare);
  } else {
    keyed = filterStatuses(all, q).map(key).sort(compare);
  }
  // docs/maintenance.md: how many checks a maintenance window covers now (docs/maintenance.md).
  let inMaintenance = 0;
  for (const s of all) if (s.maintenance) inMaintenance++;
  return {
    chosen: keyed.map((x) => x.s),
    summary: { ...summarize(all), inMaintenance },
    basis: { account, all: own, keyed },
  };
}

/** `sorted` without the statuses `gone`, merged with `added` (sorted too): one pass. */
function merge(
  sorted: readonly Keyed[],
  gone: ReadonlySet<CheckStatus>,
  added: readonly Keyed[],
  compare: (a: Keyed, b: Keyed) => number,
): Keyed[] {
  const out: Keyed[] = [];
  let j = 0;
  for (const x of sorted) {
    if (gone.has(x.s)) continue;
    while (j < added.length && compare(added[j]!, x) < 0) out.push(added[j++]!);
    out.push(x);
  }
  while (j < added.length) out.push(added[j++]!);
  return out;
}

function namePlaces(items: readonly CheckStatus[]): NameOrder {
  const byName = [...items].sort(
    (a, b) => collate(a.checkName, b.checkName) || collate(a.checkId, b.checkId),
  );
  return new Map(byName.map((s, i) => [s.checkId, i]));
}
