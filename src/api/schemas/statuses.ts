// 2.2 of the spec: a check's status, its locations, incident, alert, pause and
// maintenance; the statuses list with its summary and the service's health; its query.
import { z } from 'zod';
import {
  listOf,
  MAX_MS,
  PageMetaSchema,
  pageQuery,
  qBoolean,
  qList,
  qNumber,
  rangeInOrder,
  openEnum,
  TimestampSchema,
  RunbookLinkSchema,
} from './common.js';
import {
  CHECK_TYPES,
  CheckStatusValueSchema,
  CheckTypeSchema,
  PeriodSchema,
  ResultStatusSchema,
  TrendSchema,
} from './enums.js';
import { CheckMaintenanceSchema } from './maintenance.js';
import { HEARTBEAT_STATUS_FIELDS } from './heartbeats.js';

// ---------------------------------------------------------------- 2.2 check status

export const CheckLocationStatusSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  status: CheckStatusValueSchema,
  /** DECISION: null when the location has never had a successful run. */
  lastSuccess: TimestampSchema.nullable(),
  /** DECISION: run by `checkwall runner` processes rather than the service (absent from other services). */
  remote: z.boolean().optional(),
  /** DECISION: a remote location's newest runner contact; null when none was ever seen, or not remote. */
  runnerLastSeen: TimestampSchema.nullable().optional(),
  /** DECISION: why the location is unknown, when it is a remote one with no runner connected. */
  statusReason: z.string().optional(),
});
export type CheckLocationStatus = z.infer<typeof CheckLocationStatusSchema>;

export const IncidentSchema = z.looseObject({
  id: z.string(),
  severity: z.string(),
  startedAt: TimestampSchema,
  title: z.string(),
});
export type Incident = z.infer<typeof IncidentSchema>;

/**
 * DECISION: the check's open alert (it opens after `afterFailures` failed runs of a
 * failing check, closes on recovery). `undelivered` counts its notifications that
 * ended `failed`: a page that never went out.
 */
export const CurrentAlertSchema = z.looseObject({
  id: z.string(),
  openedAt: TimestampSchema,
  acknowledgedAt: TimestampSchema.nullable(),
  undelivered: z.number().int(),
});
export type CurrentAlert = z.infer<typeof CurrentAlertSchema>;

/**
 * DECISION: on a check status, who paused it and since when (a person's pause has no
 * end, so it is shown: a forgotten one is seen); null when no person paused it.
 */
export const PauseSchema = z.looseObject({
  by: z.string(),
  since: TimestampSchema,
});
export type Pause = z.infer<typeof PauseSchema>;

/**
 * DECISION (docs/console.md, "Runbooks and links"): a check's runbook and other links, as its
 * config names them; optional, absent from services that do not have them. The console opens,
 * links and copies only their http(s) URLs.
 */
export const CheckLinkSchema = RunbookLinkSchema;
export type CheckLink = z.infer<typeof CheckLinkSchema>;
export const CHECK_LINK_FIELDS = {
  runbook: z.string().nullable().optional(),
  links: z.array(CheckLinkSchema).optional(),
};

/** The kinds of hold, in the order `heldBy` picks the first of several. */
export const HOLD_KINDS = ['maintenance', 'location', 'dependency'] as const;
export type HoldKind = (typeof HOLD_KINDS)[number];
export const HeldBySchema = z.looseObject({
  /** Open: an older client shows a newer kind by its raw name. */
  kind: openEnum(HOLD_KINDS),
  /** The window's, the location's or the parent check's (or `group:<id>`) id. */
  id: z.string(),
  name: z.string(),
  since: TimestampSchema,
  /** For a dependency: where the parent is failing (null: anywhere). For a location: itself. */
  location: z.string().nullable().optional(),
});
export type HeldBy = z.infer<typeof HeldBySchema>;

export const CheckStatusSchema = z.looseObject({
  checkId: z.string(),
  checkName: z.string(),
  checkType: CheckTypeSchema,
  status: CheckStatusValueSchema,
  availability: z.looseObject({
    /** DECISION: null when the window holds no run. */
    percentage: z.number().min(0).max(100).nullable(),
    period: z.string(),
  }),
  performance: z.looseObject({
    /** DECISION: null when the window holds no run with a response time. */
    averageResponseTime: z.number().nullable(),
    p95ResponseTime: z.number().nullable(),
    trend: TrendSchema,
  }),
  /** DECISION: null for a check that has never run. */
  lastExecution: z
    .looseObject({
      timestamp: TimestampSchema,
      status: ResultStatusSchema,
      responseTime: z.number(),
      location: z.string(),
      error: z.string().optional(),
    })
    .nullable(),
  currentIncident: IncidentSchema.nullable(),
  alerts: z.looseObject({
    active: z.number().int(),
    acknowledged: z.number().int(),
    total24h: z.number().int(),
  }),
  schedule: z.looseObject({
    frequency: z.string(),
    /** DECISION: null when the check is disabled. */
    nextRun: TimestampSchema.nullable(),
    enabled: z.boolean(),
  }),
  locations: z.array(CheckLocationStatusSchema),
  tags: z.array(z.string()),
  /** DECISION: null for a check in no group. */
  group: z.looseObject({ id: z.string(), name: z.string() }).nullable(),
  /** DECISION: why the status is what it is, in a sentence (e.g. "browser checks do not run yet"). */
  statusReason: z.string().optional(),
  /** DECISION: the open alert, null when none (absent from services that do not alert). */
  currentAlert: CurrentAlertSchema.nullable().optional(),
  /** DECISION: set while a person has paused the check (POST /v1/checks/{id}/pause). */
  paused: PauseSchema.nullable().optional(),
  /** DECISION: the active maintenance window over the check (docs/maintenance.md). */
  maintenance: CheckMaintenanceSchema.nullable().optional(),
  /** DECISION: from the newest result that carried a certificate; null when none did. */
  certificate: z
    .looseObject({ daysRemaining: z.number().int(), validTo: TimestampSchema })
    .nullable()
    .optional(),
  /**
   * DECISION (docs/decisions.md): since when the check has been degraded
   * without a break; null when it is not degraded (absent from services that do not say).
   */
  degradedSince: TimestampSchema.nullable().optional(),
  /**
   * DECISION (docs/decisions.md): the failed runs in a row (at any location) the check's alert
   * policy waits for before an alert opens (`alerts.afterFailures`), so a screen can say
   * why an open incident paged no one (absent from services that do not alert).
   */
  alertAfterFailures: z.number().int().optional(),
  ...CHECK_LINK_FIELDS,
  /** DECISION (docs/service.md, "Heartbeats"): a heartbeat's next ping, first ping and run under way. */
  ...HEARTBEAT_STATUS_FIELDS,
  /**
   * DECISION (docs/alerts.md, "One page per cause"): what holds the check's pages now, the
   * first of maintenance, location, dependency; null when nothing does (absent from services
   * that do not hold pages). Holds never change the status itself.
   */
  heldBy: HeldBySchema.nullable().optional(),
});
export type CheckStatus = z.infer<typeof CheckStatusSchema>;

export const StatusSummarySchema = z.looseObject({
  totalChecks: z.number().int(),
  passing: z.number().int(),
  failing: z.number().int(),
  degraded: z.number().int(),
  averageAvailability: z.number().nullable(),
  activeIncidents: z.number().int(),
  activeAlerts: z.number().int(),
  /** DECISION: checks under an active maintenance window (absent from services without them). */
  inMaintenance: z.number().int().optional(),
});
export type StatusSummary = z.infer<typeof StatusSummarySchema>;

/**
 * DECISION: the service's own health, on the check-statuses list's meta: absent
 * from services that do not report it; "degraded" with the reasons (a database
 * unreachable, a scheduler behind) when the statuses it serves may be wrong.
 */
export const ServiceHealthReasonSchema = z.looseObject({
  code: z.string(),
  message: z.string(),
  since: TimestampSchema,
});
export const ServiceHealthSchema = z.looseObject({
  status: z.enum(['ok', 'degraded']),
  reasons: z.array(ServiceHealthReasonSchema),
});
export type ServiceHealth = z.infer<typeof ServiceHealthSchema>;

/**
 * DECISION: a location outage (docs/alerts.md, "A broken location"): `id` and `name` are the
 * location's, `outageId` the outage's own (PagerDuty's dedup_key, Opsgenie's alias).
 */
export const LocationOutageSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  outageId: z.string(),
  since: TimestampSchema,
  failing: z.number().int(),
  total: z.number().int(),
});
export type LocationOutage = z.infer<typeof LocationOutageSchema>;

export const CheckStatusListSchema = listOf(
  CheckStatusSchema,
  PageMetaSchema.extend({
    summary: StatusSummarySchema.optional(),
    /** The service's own health (docs/health.md): degraded, with why, while it cannot keep up. */
    service: ServiceHealthSchema.optional(),
    /** DECISION (docs/alerts.md): locations declared down now (absent: the service does not say). */
    locationOutages: z.array(LocationOutageSchema).optional(),
  }),
);
export type CheckStatusList = z.infer<typeof CheckStatusListSchema>;

export const STATUS_SORTS = ['name', 'status', 'availability', 'responseTime', 'lastExecution'] as const;
export const CheckStatusesQuerySchema = z
  .strictObject({
    status: CheckStatusValueSchema.optional(),
    checkType: z.enum(CHECK_TYPES).optional(),
    group: z.string().min(1).optional(),
    tags: qList.optional(),
    location: z.string().min(1).optional(),
    hasIncident: qBoolean.optional(),
    availabilityMin: qNumber(0, 100).optional(),
    availabilityMax: qNumber(0, 100).optional(),
    responseTimeMin: qNumber(0, MAX_MS).optional(),
    responseTimeMax: qNumber(0, MAX_MS).optional(),
    trend: TrendSchema.optional(),
    /** DECISION: the availability window; the spec shows `30d`; we take the 4.1 periods. */
    period: PeriodSchema.default('24h'),
    ...pageQuery(),
    sortBy: z.enum(STATUS_SORTS).default('lastExecution'),
    /** DECISION: default `asc` for name, `desc` (worst, slowest, newest first) for the rest. */
    sortOrder: z.enum(['asc', 'desc']).optional(),
    includeSummary: qBoolean.default(true),
  })
  .refine(...rangeInOrder('availabilityMin', 'availabilityMax'))
  .refine(...rangeInOrder('responseTimeMin', 'responseTimeMax'));
export type CheckStatusesQuery = z.input<typeof CheckStatusesQuerySchema>;
