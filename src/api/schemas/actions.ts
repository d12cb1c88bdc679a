// The wire of what a key may do to checks, beyond the spec's reads: who the key
// is (`/v1/me`), run now (`/v1/check-runs`), pause and resume, and the audit
// trail of every action. The spec shows none of it (its check results name
// `triggeredBy: api | manual` and its statuses `schedule.enabled`, "paused"):
// every shape here is a DECISION, listed in docs/decisions.md.
import { z } from 'zod';
import {
  fromNotAfterTo,
  listOf,
  PageMetaSchema,
  pageQuery,
  PathParamSchema,
  TimestampSchema,
} from './common.js';
import { TriggerSchema } from './enums.js';
import { CheckStatusSchema } from './statuses.js';

/**
 * DECISION: a key's role. `read`: every GET. `operate`: read + acknowledge, run now,
 * pause and resume, maintenance windows. `admin`: operate + create, test and subscribe
 * alert channels. A plain-string key in the config is `admin`.
 */
export const ROLES = ['read', 'operate', 'admin'] as const;
export const RoleSchema = z.enum(ROLES);
export type Role = z.infer<typeof RoleSchema>;

/** Whether a key of role `has` may do what needs role `needs`. */
export const roleAllows = (has: Role, needs: Role): boolean => ROLES.indexOf(has) >= ROLES.indexOf(needs);

/** `GET /v1/me`: so a console knows what to offer. */
export const MeSchema = z.looseObject({
  accountId: z.string(),
  keyName: z.string(),
  role: RoleSchema,
});
export type Me = z.infer<typeof MeSchema>;

// ---------------------------------------------------------------- run now

/** At most this many runs (check × location) in one request: more is a 400 that says how to narrow it. */
export const MAX_RUNS_PER_REQUEST = 100;

const ids = z.array(PathParamSchema).max(MAX_RUNS_PER_REQUEST);

/**
 * `POST /v1/check-runs`: at least one selector; a check matching any of them is
 * run, once per location (or only at `locations`, when given).
 */
export const CheckRunsCreateSchema = z
  .strictObject({
    checkIds: ids.optional(),
    groupIds: ids.optional(),
    tags: ids.optional(),
    locations: ids.optional(),
    triggeredBy: TriggerSchema.exclude(['schedule']).default('api'),
  })
  .refine((b) => (b.checkIds?.length ?? 0) + (b.groupIds?.length ?? 0) + (b.tags?.length ?? 0) > 0, {
    message: 'name at least one of checkIds, groupIds or tags',
  });
export type CheckRunsCreate = z.input<typeof CheckRunsCreateSchema>;

export const RUN_STATES = ['queued', 'running', 'done', 'skipped'] as const;
export const RunStateSchema = z.enum(RUN_STATES);
export type RunState = z.infer<typeof RunStateSchema>;

/**
 * One on-demand run. `resultId` and `status` once `done`; `reason` once `skipped`
 * (no runner connected for a remote location, the check removed or paused).
 * Readable for 24 hours after it finished.
 */
export const CheckRunSchema = z.looseObject({
  runId: z.string(),
  checkId: z.string(),
  location: z.string(),
  state: RunStateSchema,
  triggeredBy: TriggerSchema,
  queuedAt: TimestampSchema,
  resultId: z.string().optional(),
  status: z.enum(['success', 'failed']).optional(),
  reason: z.string().optional(),
});
export type CheckRun = z.infer<typeof CheckRunSchema>;

/** The answer of `POST /v1/check-runs` (202) and of `GET /v1/check-runs?ids=`. */
export const CheckRunListSchema = z.looseObject({ data: z.array(CheckRunSchema) });
export type CheckRunList = z.infer<typeof CheckRunListSchema>;

export const CheckRunsQuerySchema = z.strictObject({
  ids: z
    .string()
    .transform((s) => s.split(',').filter(Boolean))
    .pipe(ids.min(1)),
});

// ---------------------------------------------------------------- pause and resume

/**
 * The answer of `POST /v1/checks/{id}/pause` and `/resume`: the check's status, and
 * `meta.note` when the config disables the check (a resume does not enable it).
 */
export const CheckStatusAnswerSchema = z.looseObject({
  data: CheckStatusSchema,
  meta: z.looseObject({ note: z.string().optional() }).optional(),
});
export type CheckStatusAnswer = z.infer<typeof CheckStatusAnswerSchema>;

// ---------------------------------------------------------------- audit events

export const AUDIT_ACTIONS = [
  'run',
  'pause',
  'resume',
  'acknowledge',
  'channel.create',
  'channel.test',
  'channel.grouping',
  'channel.subscriptions',
  'maintenance.create',
  'maintenance.update',
  'maintenance.end',
  'maintenance.cancel',
  'maintenance.delete',
] as const;
export const AuditActionSchema = z.enum(AUDIT_ACTIONS);
export type AuditAction = z.infer<typeof AuditActionSchema>;

/** Who did what and when: every action of a key is recorded. */
export const AuditEventSchema = z.looseObject({
  id: z.string(),
  at: TimestampSchema,
  keyName: z.string(),
  action: AuditActionSchema,
  checkId: z.string().optional(),
  targetId: z.string().optional(),
  details: z.record(z.string(), z.unknown()),
});
export type AuditEvent = z.infer<typeof AuditEventSchema>;

export const AuditEventListSchema = listOf(AuditEventSchema, PageMetaSchema);
export type AuditEventList = z.infer<typeof AuditEventListSchema>;

export const AuditEventsQuerySchema = z
  .strictObject({
    checkId: PathParamSchema.optional(),
    action: AuditActionSchema.optional(),
    from: TimestampSchema.optional(),
    to: TimestampSchema.optional(),
    ...pageQuery(20),
  })
  .refine(...fromNotAfterTo);
export type AuditEventsQuery = z.input<typeof AuditEventsQuerySchema>;
