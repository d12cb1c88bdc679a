// The spec's short interval form ("30s", "1m", "5m", "1h"): a check's frequency, a
// heartbeat's grace and longest run.
import { z } from 'zod';

/**
 * The longest interval a config may name: a week. A check's period becomes timers
 * (its next turn, its stale time), and Node fires a timer of more than 2^31 - 1 ms
 * (24.8 days) at once: a longer period ran its slot in a busy loop.
 */
export const MAX_INTERVAL_HOURS = 168;

export const FrequencySchema = z
  .string()
  .regex(/^\d+(s|m|h)$/, 'must be a number and a unit, e.g. 30s, 1m, 5m, 1h')
  .refine(
    (f) => frequencyToMs(f) <= MAX_INTERVAL_HOURS * 3_600_000,
    `must be at most ${MAX_INTERVAL_HOURS}h (a week)`,
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
