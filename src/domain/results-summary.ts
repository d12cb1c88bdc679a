// The check view's line above its results: what the filtered period holds,
// with nothing empty drawn as a number (no runs is not "success 0.00%", and a
// heartbeat's pings have no response time to average, and runs that all failed
// have none to give).
import type { CheckResult, ResultsSummary } from '../api/schemas/index.js';
import { NO_DATA, formatMs, formatPercent } from './format.js';

/** "1 run", "3 runs": a count with its noun in the right number. */
export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

export function resultsSummaryLine(s: ResultsSummary | undefined, checkType: string): string {
  if (!s) return 'no summary yet';
  if (s.totalRuns === 0) return 'no runs in this period with these filters';
  const beat = checkType === 'heartbeat';
  const counts = `${plural(s.totalRuns, beat ? 'ping' : 'run')}  ${s.failedRuns} failed  success ${formatPercent(s.successRate)}`;
  if (beat) return counts;
  // Failed runs are left out of the times: with none passed there is no time to give (the header says — too).
  if (s.successfulRuns === 0) return `${counts}  avg ${NO_DATA}  p95 ${NO_DATA}  p99 ${NO_DATA}`;
  return `${counts}  avg ${formatMs(s.averageResponseTime)}  p95 ${formatMs(s.p95ResponseTime)}  p99 ${formatMs(s.p99ResponseTime)}`;
}

/** The filters of the results list that a run itself can be matched against. */
export interface RunFilters {
  status?: 'success' | 'failed' | undefined;
  location?: string | undefined;
  triggeredBy?: string | undefined;
  responseTimeMin?: number | undefined;
}

/** Whether a run is one the filtered list would show (so the sparkline draws the same runs). */
export function matchesRunFilters(r: CheckResult, f: RunFilters): boolean {
  if (f.status && r.status !== f.status) return false;
  if (f.location && r.location.id !== f.location) return false;
  if (f.triggeredBy && r.triggeredBy !== f.triggeredBy) return false;
  if (f.responseTimeMin !== undefined && (r.response?.responseTime ?? -1) < f.responseTimeMin) return false;
  return true;
}
