// The counts a status summary holds, from any set of check statuses: the
// service answers the account's with its list, the console works out a
// dashboard's (and a public dashboard's, which comes without one) the same way.
import type { CheckStatus, CheckStatusValue, StatusSummary } from '../api/schemas.js';
import { round } from './stats.js';

export function summarize(all: readonly CheckStatus[]): StatusSummary {
  const known = all.map((s) => s.availability.percentage).filter((p): p is number => p !== null);
  return {
    totalChecks: all.length,
    passing: all.filter((s) => s.status === 'passing').length,
    failing: all.filter((s) => s.status === 'failing').length,
    degraded: all.filter((s) => s.status === 'degraded').length,
    averageAvailability:
      known.length === 0 ? null : round(known.reduce((a, b) => a + b, 0) / known.length, 3),
    activeIncidents: all.filter((s) => s.currentIncident !== null).length,
    activeAlerts: all.reduce((n, s) => n + s.alerts.active, 0),
  };
}

export interface StatusShare {
  status: CheckStatusValue;
  count: number;
  /** Percent of all checks, null when there are none. */
  percent: number | null;
}

/** Worst first; unknown is whatever is neither passing, failing nor degraded. */
export function statusShares(summary: StatusSummary): StatusShare[] {
  const unknown = Math.max(0, summary.totalChecks - summary.passing - summary.failing - summary.degraded);
  const counts: Array<[CheckStatusValue, number]> = [
    ['failing', summary.failing],
    ['degraded', summary.degraded],
    ['unknown', unknown],
    ['passing', summary.passing],
  ];
  return counts.map(([status, count]) => ({
    status,
    count,
    percent: summary.totalChecks === 0 ? null : (count / summary.totalChecks) * 100,
  }));
}
