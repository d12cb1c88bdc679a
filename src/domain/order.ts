// Board ordering. "status" is worst first: failing, degraded, unknown, passing;
// ties always fall back to name, then id, so the order is stable across polls.
import type { CheckStatus, CheckStatusValue } from '../api/schemas.js';

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

export const SEVERITY: Record<CheckStatusValue, number> = { failing: 0, degraded: 1, unknown: 2, passing: 3 };

function key(c: CheckStatus, k: SortKey): number | string | null {
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
    case 'lastRun':
      return c.lastExecution ? -Date.parse(c.lastExecution.timestamp) : null;
  }
}

/** Ascending means the natural reading: worst first, A to Z, lowest availability, fastest, newest run. */
export function compareChecks(a: CheckStatus, b: CheckStatus, k: SortKey, descending = false): number {
  const ka = key(a, k);
  const kb = key(b, k);
  let c = 0;
  if (ka === null || kb === null)
    c = ka === kb ? 0 : ka === null ? 1 : -1; // no data sorts last either way
  else {
    c = ka < kb ? -1 : ka > kb ? 1 : 0;
    if (descending) c = -c;
  }
  return c || a.checkName.localeCompare(b.checkName) || a.checkId.localeCompare(b.checkId);
}
