// Per-location figures from a check's recent runs, and the one-line cause of a
// failed run.
import type { CheckResult } from '../api/schemas/index.js';
import { mean, percentile } from './stats.js';

export interface LocationFigures {
  runs: number;
  successRate: number | null;
  average: number | null;
  p95: number | null;
}

export function locationFigures(results: readonly CheckResult[], locationId: string): LocationFigures {
  const mine = results.filter((r) => r.location.id === locationId);
  const times = mine.map((r) => r.response?.responseTime ?? null).filter((t): t is number => t !== null);
  const ok = mine.filter((r) => r.status === 'success').length;
  return {
    runs: mine.length,
    successRate: mine.length ? (ok / mine.length) * 100 : null,
    average: mean(times),
    p95: percentile(times, 95),
  };
}

/** The first failed assertion, else the error: what an on-call engineer reads first. */
export function failureCause(r: CheckResult): string {
  const failed = r.assertions.find((a) => !a.passed);
  if (failed) {
    const what = failed.property ? `${failed.source} ${failed.property}` : failed.source;
    return `${what} ${failed.comparison.toLowerCase().replace(/_/g, ' ')} ${failed.target}, got ${failed.actual ?? '(absent)'}`;
  }
  if (r.error) return `${r.error.name}: ${r.error.message}`;
  return '';
}
