// A metrics_chart widget in numbers: the metric per check over the widget's
// period, a combined value for the dashboard, and a line over time from the
// runs fetched. Each check's value comes from metricValues, so the endpoint's
// exact summary wins where it has the figure and the runs give the rest.
import type { CheckResult, ResultsSummary } from '../api/schemas/index.js';
import { formatMs, formatPercent } from './format.js';
import { COMPUTED_METRICS, metricValues } from './metric-values.js';

export interface ChartCheck {
  checkId: string;
  checkName: string;
  /** A heartbeat's pings have no response time, whatever the summary says (0 ms). */
  checkType?: string | undefined;
  results: CheckResult[];
  summary?: ResultsSummary | undefined;
}

const COUNTS = new Set(['totalRequests', 'successfulRequests', 'failedRequests', 'missedHeartbeats']);
const PERCENTS = new Set(['successRate', 'errorRate', 'uptimePercentage', 'heartbeatConsistency']);
const MILLIS = /ResponseTime$|^firstInputDelay$/;
const SECONDS = new Set([
  'averageHeartbeatInterval',
  'longestGap',
  'averageRunDuration',
  'longestRunDuration',
]);

/** Whether the console can compute this metric from results (those of the catalogue, spec 2.5). */
export function canChart(metric: string): boolean {
  return COMPUTED_METRICS.includes(metric);
}

function runsOf(c: ChartCheck): number {
  return c.summary?.totalRuns ?? c.results.length;
}

export interface CheckValue {
  checkId: string;
  checkName: string;
  value: number | null;
  runs: number;
}

export function valuesPerCheck(metric: string, checks: readonly ChartCheck[]): CheckValue[] {
  return checks.map((c) => ({
    checkId: c.checkId,
    checkName: c.checkName,
    value:
      c.checkType === 'heartbeat' && MILLIS.test(metric)
        ? null
        : (metricValues(c.results, c.summary)[metric] ?? null),
    runs: runsOf(c),
  }));
}

/**
 * One value for the dashboard: counts add up, min and max take the extreme,
 * the longest gap the longest; everything else is the mean weighted by runs
 * (exact for averages and rates, an approximation for percentiles).
 */
export function combine(metric: string, values: readonly CheckValue[]): number | null {
  const known = values.filter((v): v is CheckValue & { value: number } => v.value !== null);
  if (known.length === 0) return null;
  if (COUNTS.has(metric)) return known.reduce((n, v) => n + v.value, 0);
  if (metric.startsWith('min')) return Math.min(...known.map((v) => v.value));
  if (metric.startsWith('max') || metric === 'longestGap' || metric === 'longestRunDuration')
    return Math.max(...known.map((v) => v.value));
  const weight = known.reduce((n, v) => n + Math.max(1, v.runs), 0);
  return known.reduce((n, v) => n + v.value * Math.max(1, v.runs), 0) / weight;
}

/** The metric over time: `buckets` equal slices of [from, to), null where no run fell. */
export function seriesOverTime(
  metric: string,
  checks: readonly ChartCheck[],
  from: number,
  to: number,
  buckets: number,
): Array<number | null> {
  const span = Math.max(1, to - from) / buckets;
  const slices: CheckResult[][] = Array.from({ length: buckets }, () => []);
  for (const c of checks)
    for (const r of c.checkType === 'heartbeat' && MILLIS.test(metric) ? [] : c.results) {
      const i = Math.floor((Date.parse(r.startedAt) - from) / span);
      if (i >= 0 && i < buckets) slices[i]!.push(r);
    }
  return slices.map((runs) => (runs.length === 0 ? null : (metricValues(runs, undefined)[metric] ?? null)));
}

/** Since when every check's runs were all fetched (a check with more runs than fetched starts later). */
export function coveredFrom(checks: readonly ChartCheck[], from: number): number {
  let covered = from;
  for (const c of checks) {
    if (runsOf(c) <= c.results.length || c.results.length === 0) continue;
    const oldest = Math.min(...c.results.map((r) => Date.parse(r.startedAt)));
    covered = Math.max(covered, oldest);
  }
  return covered;
}

export function formatMetric(metric: string, value: number | null): string {
  if (value === null) return '—';
  if (MILLIS.test(metric)) return formatMs(value);
  if (PERCENTS.has(metric)) return formatPercent(value, 2);
  if (COUNTS.has(metric)) return String(Math.round(value));
  if (SECONDS.has(metric)) return `${value.toFixed(1)} s`;
  return value.toFixed(3);
}

/** A bar of at most `width` cells for value against max (a value above zero shows at least one). */
export function barCells(value: number | null, max: number, width: number): number {
  if (value === null || value <= 0 || max <= 0) return 0;
  return Math.max(1, Math.round((Math.min(value, max) / max) * width));
}

/** "averageResponseTime" as a title: "Average response time" ("p95ResponseTime": "P95 response time"). */
export function metricTitle(metric: string): string {
  const words = metric.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
