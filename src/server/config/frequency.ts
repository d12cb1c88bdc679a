// The spec's short interval form ("30s", "1m", "5m", "1h"): a check's frequency, a
// heartbeat's grace and longest run.
import { z } from 'zod';

/**
 * The longest period of a check that runs: a week. Its period becomes timers (its next
 * turn, its stale time), and Node fires a timer of more than 2^31 - 1 ms (24.8 days) at
 * once: a longer period ran its slot in a busy loop.
 */
export const MAX_RUN_PERIOD_HOURS = 168;
/**
 * The longest interval otherwise: a year, as Healthchecks.io takes. A heartbeat's period,
 * grace and longest run are judged by the watch's turns (every few seconds), never by a
 * timer of their length: a monthly job is watched by its period.
 */
export const MAX_INTERVAL_HOURS = 8_760;

export const FrequencySchema = z
  .string()
  .regex(/^\d+(s|m|h)$/, 'must be a number and a unit, e.g. 30s, 1m, 5m, 1h')
  .refine(
    (f) => frequencyToMs(f) <= MAX_INTERVAL_HOURS * 3_600_000,
    `must be at most ${MAX_INTERVAL_HOURS}h (a year)`,
  );

/** A check's frequency: a period of 0 made its due times NaN, which stopped the service. */
export const CheckFrequencySchema = FrequencySchema.refine(
  (f) => frequencyToMs(f) > 0,
  'must be at least 1s',
);

export function frequencyToMs(frequency: string): number {
  const n = Number.parseInt(frequency, 10);
  const unit = frequency.at(-1);
  return n * (unit === 'h' ? 3_600_000 : unit === 'm' ? 60_000 : 1_000);
}

/** What is wrong with a check's frequency for its type: a check that runs waits at most a week. */
export function runPeriodProblem(type: string, frequency: string): string | undefined {
  const ms = frequencyToMs(frequency);
  // Past a year the field says so itself: one message for one mistake.
  if (type === 'heartbeat' || ms <= MAX_RUN_PERIOD_HOURS * 3_600_000 || ms > MAX_INTERVAL_HOURS * 3_600_000)
    return undefined;
  return `must be at most ${MAX_RUN_PERIOD_HOURS}h (a week) for a check that runs (a heartbeat's may be up to a year)`;
}
