// GET /v1/check-statuses: filter, sort and page the account's check statuses.
import type { CheckStatus, CheckStatusesQuerySchema } from '../../api/schemas.js';
import type { z } from 'zod';
import type { AccountConfig } from '../config-schema.js';

export type Query = z.output<typeof CheckStatusesQuerySchema>;

const SEVERITY = { passing: 0, unknown: 1, degraded: 2, failing: 3 } as const;

export function filterStatuses(all: readonly CheckStatus[], q: Query): CheckStatus[] {
  return all.filter((s) => {
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
  });
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

/** The account's name order, sorted once per config (collating 10,000 names is not free). */
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

/**
 * `items` in the order their checks have in `previous`, checks new to it last. The
 * sort's answer is the same from any start (checks that sort alike go by name, then
 * id); from the last answer's order, which the results since have moved only in
 * places, V8's merge sort (TimSort) finds long runs already in order: at 10,000
 * checks sorted by last execution, the order every result moves, a sort from the
 * config's order was 7 ms of the event loop at each build.
 */
export function inOrderOf(items: readonly CheckStatus[], previous: readonly CheckStatus[]): CheckStatus[] {
  const place = new Map<string, number>();
  previous.forEach((s, i) => place.set(s.checkId, i));
  const slots: Array<CheckStatus | undefined> = new Array<CheckStatus | undefined>(previous.length);
  const fresh: CheckStatus[] = [];
  for (const s of items) {
    const i = place.get(s.checkId);
    if (i === undefined) fresh.push(s);
    else slots[i] = s;
  }
  const out: CheckStatus[] = [];
  for (const s of slots) if (s !== undefined) out.push(s);
  for (const s of fresh) out.push(s);
  return out;
}

/**
 * Sorts by the query's key, checks that sort alike by name then id, unknowns last.
 * Each key is read once (not once per comparison): at 10,000 checks the comparisons
 * parsing dates and collating names were most of a list's cost.
 */
export function sortStatuses(items: readonly CheckStatus[], q: Query, order?: NameOrder): CheckStatus[] {
  const direction = q.sortOrder ?? (q.sortBy === 'name' ? 'asc' : 'desc');
  const sign = direction === 'asc' ? 1 : -1;
  const places = order ?? namePlaces(items);
  const key = (s: CheckStatus): number | string | null => {
    switch (q.sortBy) {
      case 'name':
        return s.checkName.toLowerCase();
      case 'status':
        return SEVERITY[s.status];
      case 'availability':
        return s.availability.percentage;
      case 'responseTime':
        return s.performance.averageResponseTime;
      case 'lastExecution':
        return lastExecutedAt(s);
    }
  };
  const keyed = items.map((s) => ({ s, k: key(s), place: places.get(s.checkId) ?? Number.MAX_SAFE_INTEGER }));
  keyed.sort((a, b) => {
    const tie = a.place - b.place;
    if (a.k === null || b.k === null) return a.k === b.k ? tie : a.k === null ? 1 : -1; // unknowns last
    const c = a.k < b.k ? -1 : a.k > b.k ? 1 : 0;
    return c === 0 ? tie : c * sign;
  });
  return keyed.map((x) => x.s);
}

function namePlaces(items: readonly CheckStatus[]): NameOrder {
  const byName = [...items].sort(
    (a, b) => collate(a.checkName, b.checkName) || collate(a.checkId, b.checkId),
  );
  return new Map(byName.map((s, i) => [s.checkId, i]));
}

/** The account-wide summary: the same counting the console does for a dashboard. */
export { summarize } from '../../domain/summary.js';
