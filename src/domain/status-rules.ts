/**
 * The status rules of spec section 3, made exact. The spec's criteria are
 * indicative; these are ours (the README carries the same table).
 *
 * Per location, over its most recent runs (newest first):
 *   - unknown   no run, or the newest is older than 3 x the check's frequency
 *   - failing   the newest 2 runs failed
 *   - passing   the newest 3 runs (or all, if fewer) succeeded
 *   - degraded  anything else (a mix of success and failure)
 *
 * Per check:
 *   - unknown   disabled, not runnable here, or every location unknown
 *   - failing   2 or more locations failing; or every location with data failing;
 *               or availability below 85 %; or an active critical alert while the
 *               newest run failed
 *   - degraded  any location failing or degraded; availability 85 % up to 95 %;
 *               or the average response time above the check's degraded threshold
 *   - passing   otherwise (every known location passing, availability at least 95 %)
 *
 * Trend, current 24 h against the previous 24 h:
 *   - stable     no baseline, or the average within 10 % of the baseline and
 *                availability within 1 point
 *   - improving  faster by more than 10 %, or availability up by more than 1 point
 *                (and not slower by more than 10 %)
 *   - degrading  otherwise
 */
import type { CheckStatusValue, Trend } from '../api/schemas.js';
import type { LocationInput, StatusDecision, StatusInput, WindowFigures } from './status-types.js';

export const STALE_AFTER_FREQUENCIES = 3;
export const FAILING_AVAILABILITY = 85;
export const DEGRADED_AVAILABILITY = 95;

export function decideLocationStatus(
  location: LocationInput,
  now: number,
  frequencyMs: number,
): CheckStatusValue {
  const recent = location.recent;
  const newest = recent[0];
  if (!newest || now - newest.startedAt > STALE_AFTER_FREQUENCIES * frequencyMs) return 'unknown';
  if (recent.length >= 2 && recent[0]?.status === 'failed' && recent[1]?.status === 'failed')
    return 'failing';
  if (recent.slice(0, 3).every((r) => r.status === 'success')) return 'passing';
  return 'degraded';
}

export function decideCheckStatus(input: StatusInput): StatusDecision {
  const locations = input.locations.map((l) => ({
    id: l.id,
    status: decideLocationStatus(l, input.now, input.frequencyMs),
  }));
  const verdict = decide(input, locations);
  return { ...verdict, locations };
}

function decide(
  input: StatusInput,
  locations: Array<{ id: string; status: CheckStatusValue }>,
): { status: CheckStatusValue; reason: string } {
  if (!input.enabled) return { status: 'unknown', reason: 'the check is disabled' };
  if (!input.runnable)
    return { status: 'unknown', reason: input.notRunnableReason ?? 'this check cannot run in this service' };
  const known = locations.filter((l) => l.status !== 'unknown');
  if (known.length === 0) return { status: 'unknown', reason: 'no recent runs' };
  const failing = known.filter((l) => l.status === 'failing');
  const availability = input.availability;
  if (failing.length >= 2) return { status: 'failing', reason: `failing at ${failing.length} locations` };
  if (failing.length === known.length)
    return { status: 'failing', reason: `the last 2 runs failed at ${failing[0]!.id}` };
  if (availability !== null && availability < FAILING_AVAILABILITY) {
    return {
      status: 'failing',
      reason: `availability ${availability.toFixed(1)}% is below ${FAILING_AVAILABILITY}%`,
    };
  }
  if (input.activeCriticalAlerts > 0 && newestFailed(input)) {
    return { status: 'failing', reason: 'a critical alert is active and the latest run failed' };
  }
  const troubled = known.filter((l) => l.status !== 'passing');
  if (troubled.length > 0) {
    return { status: 'degraded', reason: `${troubled.map((l) => `${l.id} ${l.status}`).join(', ')}` };
  }
  if (availability !== null && availability < DEGRADED_AVAILABILITY) {
    return {
      status: 'degraded',
      reason: `availability ${availability.toFixed(1)}% is below ${DEGRADED_AVAILABILITY}%`,
    };
  }
  const slow = input.thresholds.degradedMs;
  if (slow !== undefined && input.averageResponseTime !== null && input.averageResponseTime > slow) {
    return {
      status: 'degraded',
      reason: `average response ${Math.round(input.averageResponseTime)} ms is above ${slow} ms`,
    };
  }
  return { status: 'passing', reason: 'recent runs passed everywhere' };
}

function newestFailed(input: StatusInput): boolean {
  let newest: { startedAt: number; status: string } | undefined;
  for (const l of input.locations) {
    const r = l.recent[0];
    if (r && (!newest || r.startedAt > newest.startedAt)) newest = r;
  }
  return newest?.status === 'failed';
}

export function decideTrend(current: WindowFigures, previous: WindowFigures): Trend {
  const now = current.averageResponseTime;
  const base = previous.averageResponseTime;
  if (now === null || base === null || base === 0) return 'stable';
  const change = (now - base) / base;
  const availabilityDelta =
    current.availability !== null && previous.availability !== null
      ? current.availability - previous.availability
      : 0;
  if (Math.abs(change) <= 0.1 && Math.abs(availabilityDelta) <= 1) return 'stable';
  if (change < -0.1 || (availabilityDelta > 1 && change <= 0.1)) return 'improving';
  return 'degrading';
}
