// A check's history (DECISION, docs/status-page.md): its hourly or daily roll-ups,
// which outlive the raw results; the list and its query.
import { z } from 'zod';
import { listOf, PathParamSchema, TimestampSchema } from './common.js';

/** Hours are kept for 7 days only. */
export const HISTORY_PERIODS = ['7d', '30d', '90d'] as const;
export const HISTORY_GRANULARITIES = ['hour', 'day'] as const;

/** One hour or UTC day of a check's runs (DECISION, docs/status-page.md); figures null when it had no runs. */
export const CheckHistoryBucketSchema = z.looseObject({
  start: TimestampSchema,
  /** Null: the check's runs at every location. */
  locationId: z.string().nullable(),
  runs: z.number().int(),
  failures: z.number().int(),
  /** Percent of runs that succeeded. */
  availability: z.number().nullable(),
  averageResponseTime: z.number().nullable(),
  /** Estimated from a histogram: within 22.5% of the exact nearest-rank p95. */
  p95ResponseTime: z.number().nullable(),
});
export type CheckHistoryBucket = z.infer<typeof CheckHistoryBucketSchema>;

export const CheckHistoryListSchema = listOf(
  CheckHistoryBucketSchema,
  z.looseObject({
    checkId: z.string(),
    period: z.enum(HISTORY_PERIODS),
    granularity: z.enum(HISTORY_GRANULARITIES),
    from: TimestampSchema,
    to: TimestampSchema,
  }),
);
export type CheckHistoryList = z.infer<typeof CheckHistoryListSchema>;

export const CheckHistoryQuerySchema = z
  .strictObject({
    period: z.enum(HISTORY_PERIODS).default('30d'),
    granularity: z.enum(HISTORY_GRANULARITIES).default('day'),
    location: PathParamSchema.optional(),
  })
  .refine((q) => q.granularity === 'day' || q.period === '7d', {
    message: 'hourly history is kept for 7 days only: use period=7d, or granularity=day',
    path: ['granularity'],
  });
export type CheckHistoryQuery = z.input<typeof CheckHistoryQuerySchema>;
