/**
 * When a heartbeat's job is late (docs/service.md, "Heartbeats"); pure, the time an
 * argument. docs/decisions.md carries the reasons.
 *
 * Due times: with a frequency, every `periodMs` after the baseline; with a schedule,
 * its cron due times (cron-schedule.ts). The baseline is the newest end signal (a
 * success, /fail or exit code), or, for a check awaiting its first ping, the moment
 * it began to be watched (the service's start, or the change of its schedule,
 * frequency, grace or token, whichever is newer).
 *
 *   - a due time D is judged at max(D, serviceStartedAt) + grace: one that fell while
 *     the service was down is given grace from the start, as if it had just come;
 *   - missed     the newest due time after the baseline already judged, when no run
 *                is open (a run under way is judged by its own deadline): one failed
 *                run is stored for it (its due time is its key, so once);
 *   - overrun    a /start with no end by start + maxRunTime: one failed run;
 *   - awaiting   no end signal since the check began to be watched, and nothing
 *                missed yet: unknown, "waiting for the first ping, due by" the first
 *                due time + grace;
 *   - nextPingDue the first due time not yet judged.
 */
import { longestGapMs, nextDue, type CronSchedule } from './cron-schedule.js';

export interface HeartbeatPlan {
  /** Frequency mode: the period (ms). */
  periodMs?: number | undefined;
  /** Schedule mode: the cron expression and zone. */
  schedule?: CronSchedule | undefined;
  graceMs: number;
  maxRunMs: number;
}

export interface HeartbeatFacts {
  now: number;
  serviceStartedAt: number;
  /** When the check's schedule, frequency, grace or token last changed in this service; null: not since it started. */
  changedAt: number | null;
  /** The newest end signal (epoch ms), null when none ever came. */
  lastEndAt: number | null;
  /** The oldest /start still without its end, null when none. */
  openStartAt: number | null;
}

export interface HeartbeatJudgement {
  /** Set while the first ping is awaited and not yet late: its deadline. */
  awaitingFirstPing?: { dueBy: number } | undefined;
  /** The first due time not yet judged; null when the schedule has no more. */
  nextPingDue: number | null;
  /** The newest due time past its grace with no end and no open run. */
  missed?: { dueAt: number } | undefined;
  /** A run started and not ended within maxRunTime. */
  overrun?: { startedAt: number } | undefined;
  /** The next moment this judgement may change with no signal; Infinity when never. */
  wakeAt: number;
}

/** The first due time strictly after `at`. */
function dueAfter(plan: HeartbeatPlan, baseline: number, at: number): number | null {
  if (plan.schedule) return nextDue(plan.schedule, at);
  const period = plan.periodMs ?? 60_000;
  if (at < baseline) return baseline + period;
  return baseline + (Math.floor((at - baseline) / period) + 1) * period;
}

/** The newest due time in (baseline, until], null when none. */
function dueAtOrBefore(plan: HeartbeatPlan, baseline: number, until: number): number | null {
  if (until <= baseline) return null;
  if (!plan.schedule) {
    const period = plan.periodMs ?? 60_000;
    const k = Math.floor((until - baseline) / period);
    return k >= 1 ? baseline + k * period : null;
  }
  // Walked from two gaps back at most: a baseline a month old must not walk a minutely schedule.
  const from = Math.max(baseline, until - 2 * longestGapMs(plan.schedule, until));
  let found: number | null = null;
  for (let t = nextDue(plan.schedule, from); t !== null && t <= until; t = nextDue(plan.schedule, t))
    found = t;
  return found;
}

export function judgeHeartbeat(plan: HeartbeatPlan, facts: HeartbeatFacts): HeartbeatJudgement {
  const { now, serviceStartedAt, changedAt, lastEndAt, openStartAt } = facts;
  const awaiting = lastEndAt === null || (changedAt !== null && lastEndAt < changedAt);
  const baseline = awaiting ? Math.max(changedAt ?? serviceStartedAt, serviceStartedAt) : lastEndAt;
  // Until grace has passed since the start, no due time is judged (one may have fallen while down).
  const judging = now >= serviceStartedAt + plan.graceMs;
  const judgedUpTo = judging ? now - plan.graceMs : -Infinity;
  const nextPingDue = dueAfter(plan, baseline, Math.max(baseline, judgedUpTo));
  const missedAt = judging && openStartAt === null ? dueAtOrBefore(plan, baseline, judgedUpTo) : null;
  const overrun = openStartAt !== null && now >= openStartAt + plan.maxRunMs;
  const judgeAt = (due: number) => Math.max(due, serviceStartedAt) + plan.graceMs;
  const wakes = [
    nextPingDue === null ? Infinity : judgeAt(nextPingDue),
    openStartAt === null || overrun ? Infinity : openStartAt + plan.maxRunMs,
  ];
  return {
    awaitingFirstPing:
      awaiting && missedAt === null && nextPingDue !== null ? { dueBy: judgeAt(nextPingDue) } : undefined,
    nextPingDue,
    missed: missedAt === null ? undefined : { dueAt: missedAt },
    overrun: overrun ? { startedAt: openStartAt } : undefined,
    wakeAt: Math.min(...wakes),
  };
}
