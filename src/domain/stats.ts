// Small statistics both sides need. Percentiles use the nearest-rank method:
// the value at rank ceil(p/100 * n) of the sorted values, so a percentile is
// always a value that was really measured.

export function mean(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}

/** Nearest-rank percentile of unsorted values; null for none. */
export function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return percentileOfSorted(sorted, p);
}

export function percentileOfSorted(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.ceil((Math.min(100, Math.max(0, p)) / 100) * sorted.length);
  return sorted[Math.max(0, rank - 1)] ?? null;
}

/** Percent of successes, null when there were no runs. */
export function successRate(successes: number, total: number): number | null {
  return total === 0 ? null : (successes / total) * 100;
}

export function round(value: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
