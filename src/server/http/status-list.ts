// GET /v1/check-statuses: filter, sort and page the account's check statuses.
import type { CheckStatus, CheckStatusesQuerySchema, StatusSummary } from '../../api/schemas.js';
import type { z } from 'zod';
import type { AccountConfig } from '../config-schema.js';

type Query = z.output<typeof CheckStatusesQuerySchema>;

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

/** The account's name order, sorted once per config (collating 10,000 names is not free). */
export function nameOrder(account: AccountConfig): NameOrder {
  let order = nameOrders.get(account);
  if (!order) {
    const byName = [...account.checks].sort(
      (a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id),
    );
    nameOrders.set(account, (order = new Map(byName.map((c, i) => [c.id, i]))));
  }
  return order;
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
        return s.lastExecution ? Date.parse(s.lastExecution.timestamp) : null;
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
    (a, b) => a.checkName.localeCompare(b.checkName) || a.checkId.localeCompare(b.checkId),
  );
  return new Map(byName.map((s, i) => [s.checkId, i]));
}

/** The account-wide summary: the same counting the console does for a dashboard. */
export { summarize } from '../../domain/summary.js';

export interface ListAnswer {
  chosen: CheckStatus[];
  summary: StatusSummary;
}

// A client reads the list a page at a time: 10,000 checks are 100 requests, and
// filtering, sorting and summing all of them again for each page made one poll
// cost ~2 s of the service's time. The answer is kept for up to 2 s, keyed by
// the account and the query without its page, and dropped as soon as a check's
// status, incident or alert changes (the engine's version), so a check turning
// failing shows on the very next request; the other figures in it (last
// execution, averages) are at most 2 s old. Dropping it on every stored result
// rebuilt it ~167 times a second at 10,000 checks, and statuses took seconds.
const LIST_TTL_MS = 2_000;
const LIST_ENTRIES = 16;

export function createListCache(version: () => number, now: () => number) {
  const entries = new Map<string, { at: number; version: number; answer: Promise<ListAnswer> }>();
  return (accountId: string, q: Query, build: () => Promise<ListAnswer>): Promise<ListAnswer> => {
    const { page: _page, limit: _limit, ...rest } = q;
    const key = `${accountId}\u0000${JSON.stringify(rest)}`;
    const hit = entries.get(key);
    const at = now();
    if (hit && hit.version === version() && at - hit.at < LIST_TTL_MS && at >= hit.at) return hit.answer;
    // The version before the build: a change during it makes the next request build again.
    const entry = { at, version: version(), answer: build() };
    entries.delete(key);
    entries.set(key, entry);
    if (entries.size > LIST_ENTRIES) entries.delete(entries.keys().next().value!);
    // Requests at once share one build; a failed one is not kept.
    entry.answer.catch(() => {
      if (entries.get(key) === entry) entries.delete(key);
    });
    return entry.answer;
  };
}
