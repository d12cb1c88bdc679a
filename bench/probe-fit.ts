// bench:probe's arithmetic: a least-squares line through (rate, CPU a second)
// points, whose intercept is the standing cost and whose slope the cost of one
// more run; and a median.
export interface Point {
  x: number;
  y: number;
}

export function fitLine(points: readonly Point[]): { slope: number; intercept: number } {
  const n = points.length;
  const mx = points.reduce((a, p) => a + p.x, 0) / n;
  const my = points.reduce((a, p) => a + p.y, 0) / n;
  const sxx = points.reduce((a, p) => a + (p.x - mx) ** 2, 0);
  const sxy = points.reduce((a, p) => a + (p.x - mx) * (p.y - my), 0);
  const slope = sxx === 0 ? 0 : sxy / sxx;
  return { slope, intercept: my - slope * mx };
}

/**
 * How far the middle point lies above the straight line through the first and the last.
 * A middle point above that line lifts a least-squares line's intercept: at bench:probe's
 * rates, most of what the fit reads as standing cost (docs/decisions.md, "## 42", tenth round).
 */
export function bend(points: readonly Point[]): number {
  const first = points[0];
  const middle = points[Math.floor(points.length / 2)];
  const last = points.at(-1);
  if (!first || !middle || !last || last.x === first.x) return 0;
  return middle.y - (first.y + ((last.y - first.y) * (middle.x - first.x)) / (last.x - first.x));
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}
