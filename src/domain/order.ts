// Checks' order, one for the console's board and the service's list: the severity
// order (worst first: failing, degraded, unknown, passing), one reading of each sort
// key, and unknowns last. Ties fall back to name, then id, so an order is stable
// across polls.
import type { CheckStatus, CheckStatusValue } from '../api/schemas/index.js';

export const SORT_KEYS = [
  'status',
  'name',
  'type',
  'availability',
  'responseTime',
  'p95',
  'lastRun',
] as const;
export type SortKey = (typeof SORT_KEYS)[number];

/** The statuses, worst first. */
export const STATUSES_WORST_FIRST = ['failing', 'degraded', 'unknown', 'passing'] as const;

/** A status's rank: worst first. */
export const SEVERITY = Object.fromEntries(STATUSES_WORST_FIRST.map((s, i) => [s, i])) as Record<
  CheckStatusValue,
  number
>;

/** What a check's status is sorted by, on the board and in the service's list. */
export type CheckValueKey =
  'status' | 'name' | 'type' | 'availability' | 'responseTime' | 'p95' | 'lastExecution';

const executionTime = (c: CheckStatus) => (c.lastExecution ? Date.parse(c.lastExecution.timestamp) : null);

/**
 * A check's value for `k`, rising: the severity rank (worst first), the name in lower
 * case, the type, availability, average and p95 response time, its last execution's
 * time (read with `executedAt`; the service's list caches it). null when unknown.
 */
export function checkValue(
  c: CheckStatus,
  k: CheckValueKey,
  executedAt: (c: CheckStatus) => number | null = executionTime,
): number | string | null {
  switch (k) {
    case 'status':
      return SEVERITY[c.status];
    case 'name':
      return c.checkName.toLowerCase();
    case 'type':
      return c.checkType;
    case 'availability':
      return c.availability.percentage;
    case 'responseTime':
      return c.performance.averageResponseTime;
    case 'p95':
      return c.performance.p95ResponseTime;
    case 'lastExecution':
      return executedAt(c);
  }
}

/** Two values rising (`sign` 1) or falling (-1); an unknown (null) sorts last either way; 0 when alike. */
export function compareValues(a: number | string | null, b: number | string | null, sign: 1 | -1): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  return (a < b ? -1 : a > b ? 1 : 0) * sign;
}

/** The board's key: "last run" reads newest first. */
function key(c: CheckStatus, k: SortKey): number | string | null {
  if (k !== 'lastRun') return checkValue(c, k);
  const at = executionTime(c);
  return at === null ? null : -at;
}

/** Ascending means the natural reading: worst first, A to Z, lowest availability, fastest, newest run. */
export function compareChecks(a: CheckStatus, b: CheckStatus, k: SortKey, descending = false): number {
  return (
    compareValues(key(a, k), key(b, k), descending ? -1 : 1) ||
    a.checkName.localeCompare(b.checkName) ||
    a.checkId.localeCompare(b.checkId)
  );
}
