// The wire of maintenance windows (docs/maintenance.md): silences with an end and a reason,
// one-off or recurring in a time zone, over checks, groups or tags. The spec
// shows none of it: every shape here is a DECISION, listed in
// docs/maintenance.md. The service and the console both speak only this file.
import { z } from 'zod';
import {
  listOf,
  PageMetaSchema,
  pageQuery,
  PathParamSchema,
  TIMESTAMP_FORM,
  TimestampSchema,
} from './common.js';

/** A one-off window lasts at most this long: a silence must end. */
export const MAX_ONE_OFF_MS = 7 * 24 * 3_600_000;
/** One occurrence of a recurring window lasts at most this long. */
export const MAX_OCCURRENCE_MS = 24 * 3_600_000;

/** `silence`: checks run, statuses are true, alerts are held. `pause`: checks do not run. */
export const MAINTENANCE_MODES = ['silence', 'pause'] as const;
export const MaintenanceModeSchema = z.enum(MAINTENANCE_MODES);
export type MaintenanceMode = z.infer<typeof MaintenanceModeSchema>;

/** Derived from the clock (and from an early end): never stored. */
export const MAINTENANCE_STATES = ['scheduled', 'active', 'ended'] as const;
export const MaintenanceStateSchema = z.enum(MAINTENANCE_STATES);
export type MaintenanceState = z.infer<typeof MaintenanceStateSchema>;

/** Days of a weekly window, ISO order (Monday first). */
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export const WeekdaySchema = z.enum(WEEKDAYS);
export type Weekday = z.infer<typeof WeekdaySchema>;

/** `30m`, `2h`, `1d`: minutes, hours or days. */
export const DURATION_PATTERN = /^([1-9][0-9]{0,4})(m|h|d)$/;
export const DurationSchema = z
  .string()
  .regex(DURATION_PATTERN, { message: 'a duration is a whole number of m, h or d, like 30m or 2h' });

/** Milliseconds of a duration that matched DURATION_PATTERN. */
export function durationMs(duration: string): number {
  const m = DURATION_PATTERN.exec(duration);
  if (!m) throw new Error(`not a duration: ${duration}`);
  const unit = m[2] === 'm' ? 60_000 : m[2] === 'h' ? 3_600_000 : 86_400_000;
  return Number(m[1]) * unit;
}

/** A scope's size: every window is read on every instance, so none may be megabytes. */
export const MAX_SCOPE_TAGS = 100;
export const MAX_SCOPE_TAG_LENGTH = 64;
export const MAX_SCOPE_IDS = 1000;

/** What a window covers; a group or tag covers checks added later. At least one entry. */
export const MaintenanceScopeSchema = z
  .strictObject({
    checks: z.array(PathParamSchema).max(MAX_SCOPE_IDS).optional(),
    groups: z.array(PathParamSchema).max(MAX_SCOPE_IDS).optional(),
    tags: z
      .array(
        PathParamSchema.max(MAX_SCOPE_TAG_LENGTH, `a tag has at most ${MAX_SCOPE_TAG_LENGTH} characters`),
      )
      .max(MAX_SCOPE_TAGS, `a scope names at most ${MAX_SCOPE_TAGS} tags`)
      .optional(),
  })
  .refine((s) => (s.checks?.length ?? 0) + (s.groups?.length ?? 0) + (s.tags?.length ?? 0) > 0, {
    message: 'scope names at least one of checks, groups or tags',
  })
  .refine((s) => (s.checks?.length ?? 0) + (s.groups?.length ?? 0) <= MAX_SCOPE_IDS, {
    message: `a scope names at most ${MAX_SCOPE_IDS} check and group ids together`,
  });
export type MaintenanceScope = z.output<typeof MaintenanceScopeSchema>;

/**
 * A recurring window: each occurrence starts at `startsAt`'s local time of day in
 * `timezone` (an IANA name), on every day (`daily`) or on `daysOfWeek` (`weekly`;
 * default: `startsAt`'s weekday), and lasts as long as the first one. `until` is a
 * local date (YYYY-MM-DD), inclusive: no occurrence starts after that day.
 */
export const MaintenanceRepeatSchema = z.strictObject({
  frequency: z.enum(['daily', 'weekly']),
  daysOfWeek: z.array(WeekdaySchema).min(1).max(7).optional(),
  timezone: z.string().min(1).max(100),
  until: z.iso.date().optional(),
});
export type MaintenanceRepeat = z.infer<typeof MaintenanceRepeatSchema>;

/**
 * `POST /v1/maintenance-windows`. `startsAt` defaults to now; exactly one of
 * `endsAt` and `duration`. A one-off lasts at most 7 days, an occurrence at most
 * 24 hours. Unknown check or group ids are a 400 naming them; so is an unknown
 * time zone.
 */
export const MaintenanceCreateSchema = z.strictObject({
  name: z.string().trim().min(1).max(200),
  reason: z.string().trim().min(1).max(1000),
  scope: MaintenanceScopeSchema,
  startsAt: TimestampSchema.optional(),
  endsAt: TimestampSchema.optional(),
  duration: DurationSchema.optional(),
  repeat: MaintenanceRepeatSchema.optional(),
  mode: MaintenanceModeSchema.default('silence'),
  excludeFromAvailability: z.boolean().default(false),
  /** A window that covers no check now is refused (400 on `scope`) unless this says it is meant to. */
  allowEmpty: z.boolean().optional(),
});
export type MaintenanceCreate = z.input<typeof MaintenanceCreateSchema>;

// One message for both forms: a union tells only its timestamp's, as if "now" were not taken.
const ENDS_AT_FORMS = `must be "now" or ${TIMESTAMP_FORM}`;
const EndsAtChangeSchema = z
  .string({ error: ENDS_AT_FORMS })
  .refine((v) => v === 'now' || TimestampSchema.safeParse(v).success, ENDS_AT_FORMS);

/**
 * `PATCH /v1/maintenance-windows/{id}`. `endsAt`: a later time extends, `"now"` ends
 * it. On a recurring window `endsAt` changes the current occurrence only (409 when
 * none is active); `name` and `reason` apply to the series.
 */
export const MaintenancePatchSchema = z
  .strictObject({
    endsAt: EndsAtChangeSchema.optional(),
    name: z.string().trim().min(1).max(200).optional(),
    reason: z.string().trim().min(1).max(1000).optional(),
  })
  .refine((p) => p.endsAt !== undefined || p.name !== undefined || p.reason !== undefined, {
    message: 'change at least one of endsAt, name or reason',
  });
export type MaintenancePatch = z.input<typeof MaintenancePatchSchema>;

/** One start and end of a window (the whole of a one-off, one day's of a recurring one). */
export const OccurrenceSchema = z.looseObject({
  startsAt: TimestampSchema,
  endsAt: TimestampSchema,
});
export type Occurrence = z.infer<typeof OccurrenceSchema>;

export const MaintenanceWindowSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  reason: z.string(),
  /** The key's name; `config` for a window declared in the service config. */
  createdBy: z.string(),
  createdAt: TimestampSchema,
  scope: z.looseObject({
    checks: z.array(z.string()).optional(),
    groups: z.array(z.string()).optional(),
    tags: z.array(z.string()).optional(),
  }),
  /** A one-off's start and end (after any change); a recurring one's first occurrence. */
  startsAt: TimestampSchema,
  endsAt: TimestampSchema,
  repeat: MaintenanceRepeatSchema.nullable(),
  mode: MaintenanceModeSchema,
  excludeFromAvailability: z.boolean(),
  state: MaintenanceStateSchema,
  /** The active occurrence, else the next one; null once the window has ended for good. */
  occurrence: OccurrenceSchema.nullable(),
  /** `config`: declared in the service config, read-only over the API (409 says so). */
  source: z.enum(['api', 'config']),
  /** When a person ended or cancelled it early; null otherwise. */
  endedEarlyAt: TimestampSchema.nullable(),
  /**
   * DECISION (docs/maintenance.md): the ids of the checks the scope covers now (a tag or
   * group covers checks added later); absent from services older than it.
   */
  coveredChecks: z.array(z.string()).optional(),
});
export type MaintenanceWindow = z.infer<typeof MaintenanceWindowSchema>;

export const MaintenanceWindowListSchema = listOf(MaintenanceWindowSchema, PageMetaSchema);
export type MaintenanceWindowList = z.infer<typeof MaintenanceWindowListSchema>;

export const MaintenanceListQuerySchema = z.strictObject({
  state: MaintenanceStateSchema.optional(),
  checkId: PathParamSchema.optional(),
  ...pageQuery(20),
});
export type MaintenanceListQuery = z.input<typeof MaintenanceListQuerySchema>;

/**
 * DECISION (docs/maintenance.md): on a check status, the active
 * maintenance window over it (the one ending last when several are), null when
 * none. `mode: pause`: the check does not run; its status is `unknown`, the
 * reason naming the window.
 */
export const CheckMaintenanceSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  /** DECISION: the occurrence's start (absent from services before it): `heldBy.since` of a window. */
  startsAt: TimestampSchema.optional(),
  endsAt: TimestampSchema,
  mode: MaintenanceModeSchema,
});
export type CheckMaintenance = z.infer<typeof CheckMaintenanceSchema>;
