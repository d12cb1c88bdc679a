// A check's own value for each catalogue metric, from its results over a
// period. The exact summary of the results endpoint (over every run of the
// period) wins where it has the figure; the rest comes from the runs fetched.
import type { CheckResult, ResultsSummary } from '../api/schemas/index.js';
import { mean, percentile } from './stats.js';

export type MetricValues = Record<string, number | null>;

const BROWSER_METRICS = [
  'firstContentfulPaint',
  'largestContentfulPaint',
  'cumulativeLayoutShift',
  'firstInputDelay',
  'timeToInteractive',
] as const;

/** Every metric `metricValues` can give a value for (the catalogue's, spec 2.5). */
export const COMPUTED_METRICS: readonly string[] = [
  'averageResponseTime',
  'medianResponseTime',
  'p95ResponseTime',
  'p99ResponseTime',
  'minResponseTime',
  'maxResponseTime',
  'successRate',
  'errorRate',
  'totalRequests',
  'successfulRequests',
  'failedRequests',
  ...BROWSER_METRICS,
  'uptimePercentage',
  'missedHeartbeats',
  'averageHeartbeatInterval',
  'longestGap',
  'heartbeatConsistency',
  'averageRunDuration',
  'longestRunDuration',
  'certificateDaysRemaining',
];

export function metricValues(
  results: readonly CheckResult[],
  summary: ResultsSummary | undefined,
  frequencyMs?: number,
): MetricValues {
  // A heartbeat's ping has no response time (its duration is 0): no run of one is a time.
  const times = results
    .filter((r) => r.checkType !== 'heartbeat')
    .map((r) => r.response?.responseTime ?? (r.status === 'success' ? r.duration : null))
    .filter((t): t is number => t !== null);
  const total = summary?.totalRuns ?? results.length;
  const ok = summary?.successfulRuns ?? results.filter((r) => r.status === 'success').length;
  const rate = total === 0 ? null : (ok / total) * 100;
  const values: MetricValues = {
    averageResponseTime: summary && summary.totalRuns > 0 ? summary.averageResponseTime : mean(times),
    medianResponseTime: percentile(times, 50),
    p95ResponseTime: summary && summary.totalRuns > 0 ? summary.p95ResponseTime : percentile(times, 95),
    p99ResponseTime: summary && summary.totalRuns > 0 ? summary.p99ResponseTime : percentile(times, 99),
    minResponseTime: times.length ? Math.min(...times) : null,
    maxResponseTime: times.length ? Math.max(...times) : null,
    successRate: rate,
    errorRate: rate === null ? null : 100 - rate,
    totalRequests: total,
    successfulRequests: ok,
    failedRequests: total - ok,
    ...browserValues(results),
    ...heartbeatValues(results, rate, frequencyMs),
    certificateDaysRemaining: certificateDays(results),
  };
  return values;
}

/** Browser metrics, where browser runs carry them in `metrics`: the 95th percentile of the runs. */
function browserValues(results: readonly CheckResult[]): MetricValues {
  const out: MetricValues = {};
  for (const name of BROWSER_METRICS) {
    const seen = results.map((r) => r.metrics?.[name]).filter((v): v is number => v !== undefined);
    out[name] = percentile(seen, 95);
  }
  return out;
}

function heartbeatValues(
  results: readonly CheckResult[],
  rate: number | null,
  frequencyMs?: number,
): MetricValues {
  const beats = results.filter((r) => r.checkType === 'heartbeat');
  if (beats.length === 0) return {};
  const at = beats.map((r) => Date.parse(r.startedAt)).sort((a, b) => a - b);
  const gaps = at.slice(1).map((t, i) => (t - at[i]!) / 1000);
  const missed = beats.filter((r) => r.status === 'failed').length;
  const onTime = frequencyMs === undefined ? null : gaps.filter((g) => g * 1000 <= frequencyMs * 1.5).length;
  // A run is timed only when the job sent a /start (docs/service.md, "Heartbeats").
  const runs = beats.filter((r) => r.heartbeat?.startedAt).map((r) => r.duration / 1000);
  return {
    averageRunDuration: mean(runs),
    longestRunDuration: runs.length ? Math.max(...runs) : null,
    uptimePercentage: rate,
    missedHeartbeats: missed,
    averageHeartbeatInterval: mean(gaps),
    longestGap: gaps.length ? Math.max(...gaps) : null,
    heartbeatConsistency: onTime === null || gaps.length === 0 ? null : (onTime / gaps.length) * 100,
  };
}

/** The newest run's days until its chain's first expiry (as it said when it ran), null without one. */
function certificateDays(results: readonly CheckResult[]): number | null {
  let newest: CheckResult | undefined;
  for (const r of results) if (r.certificate && (!newest || r.startedAt > newest.startedAt)) newest = r;
  const c = newest?.certificate;
  return c ? Math.min(c.daysRemaining, c.chainDaysRemaining ?? Infinity) : null;
}
