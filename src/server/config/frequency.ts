// The spec's short interval form ("30s", "1m", "5m", "1h"): a check's frequency, a
// heartbeat's grace and longest run.
import { z } from 'zod';

export const FrequencySchema = z
  .string()
  .regex(/^\d+(s|m|h)$/, 'must be a number and a unit, e.g. 30s, 1m, 5m, 1h');

export function frequencyToMs(frequency: string): number {
  const n = Number.parseInt(frequency, 10);
  const unit = frequency.at(-1);
  return n * (unit === 'h' ? 3_600_000 : unit === 'm' ? 60_000 : 1_000);
}
