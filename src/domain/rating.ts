/**
 * Rating a value against thresholds.
 *
 * With a metric's own thresholds (lower is better, e.g. CLS good 0.1, NI 0.25):
 *   value <= good -> good;  value <= needsImprovement -> needs-improvement;  else poor.
 * For higher-is-better metrics (success rate, uptime: good 99.9, NI 99.0):
 *   value >= good -> good;  value >= needsImprovement -> needs-improvement;  else poor.
 *
 * The spec's guide bands, where a metric has no thresholds of its own:
 *   response time: excellent below 200 ms, good 200 up to 500, fair above 500 up to 1000, poor above 1000
 *   success rate and uptime: excellent at 99.9 % or more, good from 99.0, fair from 95.0, poor below
 */
export type Rating = 'excellent' | 'good' | 'needs-improvement' | 'fair' | 'poor';

export function rateAgainst(
  value: number,
  good: number,
  needsImprovement: number,
  higherIsBetter = false,
): Rating {
  if (higherIsBetter)
    return value >= good ? 'good' : value >= needsImprovement ? 'needs-improvement' : 'poor';
  return value <= good ? 'good' : value <= needsImprovement ? 'needs-improvement' : 'poor';
}

export function rateResponseTime(ms: number): Rating {
  if (ms < 200) return 'excellent';
  if (ms <= 500) return 'good';
  if (ms <= 1000) return 'fair';
  return 'poor';
}

export function rateSuccessRate(percent: number): Rating {
  if (percent >= 99.9) return 'excellent';
  if (percent >= 99.0) return 'good';
  if (percent >= 95.0) return 'fair';
  return 'poor';
}

export interface RatableMetric {
  name: string;
  unit: string;
  goodThreshold?: number | undefined;
  needsImprovementThreshold?: number | undefined;
}

const HIGHER_IS_BETTER = new Set(['successRate', 'uptimePercentage', 'heartbeatConsistency']);
export const isHigherBetter = (name: string) => HIGHER_IS_BETTER.has(name);
const NO_RATING = new Set(['totalRequests', 'successfulRequests', 'failedRequests']);

/**
 * Certificate days remaining (docs/certificates.md): good above 30 (strictly: 30 days left
 * needs improvement), needs improvement from 14 to 30, poor below 14.
 */
export function rateCertificateDays(days: number, good = 30, needsImprovement = 14): Rating {
  return days > good ? 'good' : days >= needsImprovement ? 'needs-improvement' : 'poor';
}

/** Rates a metric's value by its thresholds, else by the guide bands; null when neither applies. */
export function rateMetric(metric: RatableMetric, value: number): Rating | null {
  if (NO_RATING.has(metric.name)) return null;
  if (metric.name === 'certificateDaysRemaining')
    return rateCertificateDays(value, metric.goodThreshold, metric.needsImprovementThreshold);
  const higher = HIGHER_IS_BETTER.has(metric.name);
  if (metric.goodThreshold !== undefined && metric.needsImprovementThreshold !== undefined) {
    return rateAgainst(value, metric.goodThreshold, metric.needsImprovementThreshold, higher);
  }
  if (metric.unit === 'milliseconds') return rateResponseTime(value);
  if (higher) return rateSuccessRate(value);
  return null;
}

/** Where a rating sits, for colour: 0 best .. 2 worst. */
export function ratingLevel(r: Rating): 0 | 1 | 2 {
  return r === 'excellent' || r === 'good' ? 0 : r === 'poor' ? 2 : 1;
}
