// The counts a status summary holds, from any set of check statuses: the
// service answers the account's with its list, the console works out a
// dashboard's (and a public dashboard's, which comes without one) the same way.
import type { CheckStatus, CheckStatusValue, StatusSummary } from '../api/schemas/index.js';
import { round } from './stats.js';

export function summarize(all: readonly CheckStatus[]): StatusSummary {
  // One pass, no arrays made: the service sums 10,000 statuses at each build of its list.
  let [passing, failing, degraded, known, sum, activeIncidents, activeAlerts] = [0, 0, 0, 0, 0, 0, 0];
  for (const s of all) {
    if (s.status === 'passing') passing++;
    else if (s.status === 'failing') failing++;
    else if (s.status === 'degraded') degraded++;
    const p = s.availability.percentage;
    if (p !== null) {
      known++;
      sum += p;
    }
    if (s.currentIncident !== null) activeIncidents++;
    activeAlerts += s.alerts.active;
  }
  return {
    totalChecks: all.length,
    passing,
    failing,
    degraded,
    averageAvailability: known === 0 ? null : round(sum / known, 3),
    activeIncidents,
    activeAlerts,
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
