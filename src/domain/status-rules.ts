/**
 * The status rules of spec section 3, made exact. The spec's criteria are
 * indicative; these are ours, and docs/status-rules.md carries the same text.
 *
 * Per location, over its most recent runs (newest first):
 *   - unknown   no run, or the newest is older than 3 x the check's frequency; or a
 *               remote location none of whose runners was in touch for 3 x the
 *               check's frequency ("no runner connected for <location>")
 *   - failing   the newest 2 runs failed (the newest one, for a heartbeat: each run is
 *               a job's whole run, docs/service.md); or the mean response time of the
 *               newest 3 runs is above the check's failing threshold (failingMs)
 *   - degraded  a mix of success and failure in the newest 3 runs; or their mean
 *               response time is above the degraded threshold (degradedMs)
 *   - passing   the newest 3 runs (or all, if fewer) succeeded, within thresholds
 *
 * Per check:
 *   - unknown   disabled, not runnable here, or every location unknown
 *   - failing   2 or more locations failing; or every location with data failing;
 *               or availability below 85 % (not for a heartbeat: its newest run says
 *               whether the job works); or an active critical alert while the newest
 *               run (at any location) failed
 *   - degraded  any location failing or degraded; or availability 85 % up to 95 %
 *   - passing   otherwise (every known location passing, availability at least 95 %)
 *
 * Trend, the last 24 h against the 24 h before (each figure compared only when
 * both windows have it):
 *   - degrading  the average response time more than 10 % higher, or availability
 *                more than 1 point lower
 *   - improving  not degrading, and the average more than 10 % lower or
 *                availability more than 1 point higher
 *   - stable     otherwise (no baseline, or both within those bounds)
 */
import type { CheckStatus, CheckStatusValue, Trend } from '../api/schemas/index.js';
import { formatPercent } from './format.js';
import type {
  LocationInput,
  StatusDecision,
  StatusInput,
  StatusThresholds,
  WindowFigures,
} from './status-types.js';

export const STALE_AFTER_FREQUENCIES = 3;
/**
 * The first moment (epoch ms) at which something last heard at `at` (a run, a runner's
 * contact) is too old: more than STALE_AFTER_FREQUENCIES x the frequency ago.
 */
export const staleFrom = (at: number, frequencyMs: number) => at + STALE_AFTER_FREQUENCIES * frequencyMs + 1;
export const FAILING_AVAILABILITY = 85;
export const DEGRADED_AVAILABILITY = 95;
/** Runs a location is judged on: the newest 3 (2 failed ones are enough to fail it). */
export const JUDGED_RUNS = 3;
export const TREND_TOLERANCE = 0.1;
export const TREND_AVAILABILITY_POINTS = 1;

interface Verdict {
  status: CheckStatusValue;
  reason: string;
}

export function decideLocationStatus(
  location: LocationInput,
  now: number,
  frequencyMs: number,
  thresholds: StatusThresholds = {},
): CheckStatusValue {
  return judgeLocation(location, now, frequencyMs, thresholds).status;
}

function judgeLocation(
  location: LocationInput,
  now: number,
  frequencyMs: number,
  thresholds: StatusThresholds,
): Verdict {
  const id = location.id;
  if (location.noRunner) return { status: 'unknown', reason: location.noRunner };
  const judged = location.recent.slice(0, JUDGED_RUNS);
  const newest = judged[0];
  if (!newest || now >= staleFrom(newest.startedAt, frequencyMs))
    return { status: 'unknown', reason: `${id} has no recent runs` };
  if (thresholds.failingRuns === 1 && newest.status === 'failed')
    return { status: 'failing', reason: `the last run failed at ${id}` };
  if (judged[0]?.status === 'failed' && judged[1]?.status === 'failed')
    return { status: 'failing', reason: `the last 2 runs failed at ${id}` };
  const mean = recentMean(judged);
  const { failingMs, degradedMs } = thresholds;
  if (mean !== null && failingMs !== undefined && mean > failingMs)
    return { status: 'failing', reason: `${id} responds in ${Math.round(mean)} ms, above ${failingMs} ms` };
  if (judged.some((r) => r.status === 'failed'))
    return { status: 'degraded', reason: `${id} has recent failures` };
  if (mean !== null && degradedMs !== undefined && mean > degradedMs)
    return { status: 'degraded', reason: `${id} responds in ${Math.round(mean)} ms, above ${degradedMs} ms` };
  return { status: 'passing', reason: `${id} passing` };
}

/** Mean response time of the runs that had one; null when none did. */
function recentMean(runs: LocationInput['recent']): number | null {
  const times = runs.map((r) => r.responseTime).filter((t): t is number => t !== null);
  return times.length === 0 ? null : times.reduce((a, b) => a + b, 0) / times.length;
}

export function decideCheckStatus(input: StatusInput): StatusDecision {
  const verdicts = input.locations.map((l) => ({
    id: l.id,
    ...judgeLocation(l, input.now, input.frequencyMs, input.thresholds),
  }));
  const verdict = decide(input, verdicts);
  // A remote location without its runner is said, whatever the others decided.
  const unreached = input.locations.flatMap((l) => (l.noRunner && input.enabled ? [l.noRunner] : []));
  const reason = [verdict.reason, ...unreached.filter((r) => r !== verdict.reason)].join('; ');
  return { ...verdict, reason, locations: verdicts.map(({ id, status }) => ({ id, status })) };
}

function decide(input: StatusInput, locations: Array<Verdict & { id: string }>): Verdict {
  if (!input.enabled) return { status: 'unknown', reason: 'the check is disabled' };
  if (!input.runnable)
    return { status: 'unknown', reason: input.notRunnableReason ?? 'this check cannot run in this service' };
  const known = locations.filter((l) => l.status !== 'unknown');
  if (known.length === 0) {
    const unreached = locations.find((l) => input.locations.some((i) => i.id === l.id && i.noRunner));
    return { status: 'unknown', reason: unreached?.reason ?? 'no recent runs' };
  }
  const failing = known.filter((l) => l.status === 'failing');
  const availability = input.availability;
  if (failing.length >= 2) return { status: 'failing', reason: `failing at ${failing.length} locations` };
  if (failing.length === known.length) return { status: 'failing', reason: failing[0]!.reason };
  // A heartbeat's run is a job's whole run (failingRuns: 1), a few a day: one missed night
  // of two runs is 50 %. The job rerun by hand succeeded: degraded (its recent failure), not
  // failing, so its alert resolves rather than reminding for the rest of the window.
  const jobRuns = input.thresholds.failingRuns === 1;
  if (!jobRuns && availability !== null && availability < FAILING_AVAILABILITY) {
    return {
      status: 'failing',
      reason: `availability ${availability.toFixed(1)}% is below ${FAILING_AVAILABILITY}%`,
    };
  }
  if (input.activeCriticalAlerts > 0 && newestFailed(input)) {
    return { status: 'failing', reason: 'a critical alert is active and the latest run failed' };
  }
  const troubled = known.filter((l) => l.status !== 'passing');
  if (troubled.length > 0) return { status: 'degraded', reason: troubled.map((l) => l.reason).join('; ') };
  if (availability !== null && availability < DEGRADED_AVAILABILITY) {
    return {
      status: 'degraded',
      reason: `availability ${availability.toFixed(1)}% is below ${DEGRADED_AVAILABILITY}%`,
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
  const change = now !== null && base !== null && base > 0 ? (now - base) / base : 0;
  const delta =
    current.availability !== null && previous.availability !== null
      ? current.availability - previous.availability
      : 0;
  if (change > TREND_TOLERANCE || delta < -TREND_AVAILABILITY_POINTS) return 'degrading';
  if (change < -TREND_TOLERANCE || delta > TREND_AVAILABILITY_POINTS) return 'improving';
  return 'stable';
}

/**
 * Why a check reads failing while none of its locations does (every one degraded,
 * say): the per-check rules above, in words for the check view's location list,
 * so "FAILING" and "degraded" do not contradict. Null when the check is not failing
 * or a location is failing (its own row says so).
 */
export function failingAboveLocations(
  check: Pick<CheckStatus, 'status' | 'locations' | 'availability' | 'statusReason'>,
): string | null {
  if (check.status !== 'failing' || check.locations.some((l) => l.status === 'failing')) return null;
  const availability = check.availability.percentage;
  if (availability !== null && availability < FAILING_AVAILABILITY)
    return `availability ${formatPercent(availability)} below ${FAILING_AVAILABILITY}%`;
  return check.statusReason ?? 'failing by the rules for the whole check';
}
