// The wire contract of ../shared/spec/monitoring-interface.md, in zod.
// Client and service both import this module; every type in the project that
// describes wire data is z.infer of a schema here. Decisions where the spec says
// "not shown" are marked DECISION and listed in the README.
import { z } from 'zod';
import { CHECK_STATUSES } from '../domain/check-statuses.js';

export { CHECK_STATUSES };

// ---------------------------------------------------------------- primitives

/**
 * An enumeration the spec says is incomplete: the known values are typed (and
 * offered by editors), any other string from a server is accepted and kept.
 */
export function openEnum<const T extends readonly [string, ...string[]]>(
  _known: T,
): z.ZodType<T[number] | (string & {}), string> {
  return z.string();
}

export const TimestampSchema = z.iso.datetime({ offset: true });

// --- enumerations

export const CHECK_TYPES = ['api', 'browser', 'heartbeat', 'tcp', 'multistep', 'url'] as const;
export const CheckTypeSchema = openEnum(CHECK_TYPES);
export type CheckType = z.infer<typeof CheckTypeSchema>;

export const RESULT_STATUSES = ['success', 'failed'] as const;
export const ResultStatusSchema = z.enum(RESULT_STATUSES);
export type ResultStatus = z.infer<typeof ResultStatusSchema>;

export const CheckStatusValueSchema = z.enum(CHECK_STATUSES);
export type CheckStatusValue = z.infer<typeof CheckStatusValueSchema>;

export const TRENDS = ['improving', 'stable', 'degrading'] as const;
export const TrendSchema = z.enum(TRENDS);
export type Trend = z.infer<typeof TrendSchema>;

export const TRIGGERS = ['schedule', 'api', 'manual'] as const;
export const TriggerSchema = z.enum(TRIGGERS);
export type Trigger = z.infer<typeof TriggerSchema>;

/** Known assertion sources: the spec's two, plus those our service evaluates. */
export const ASSERTION_SOURCES = [
  'STATUS_CODE',
  'JSON_BODY',
  'HEADERS',
  'TEXT_BODY',
  'RESPONSE_TIME',
  /** DECISION (docs/certificates.md): `daysRemaining` or `chainDaysRemaining` of the run's TLS certificate. */
  'CERTIFICATE',
] as const;
export const ASSERTION_COMPARISONS = [
  'EQUALS',
  'NOT_EQUALS',
  'CONTAINS',
  'NOT_CONTAINS',
  'LESS_THAN',
  'GREATER_THAN',
  'IS_EMPTY',
  'NOT_EMPTY',
] as const;
export const AssertionSourceSchema = openEnum(ASSERTION_SOURCES);
export const AssertionComparisonSchema = openEnum(ASSERTION_COMPARISONS);

/** DECISION (docs/certificates.md): `days`, beyond the spec's units, for certificateDaysRemaining. */
export const METRIC_UNITS = ['milliseconds', 'percentage', 'count', 'seconds', 'score', 'days'] as const;
export const METRIC_CATEGORIES = [
  'response_time',
  'success_rate',
  'volume',
  'core_web_vitals',
  'heartbeat',
  'performance',
  /** DECISION (docs/certificates.md): certificateMetrics. */
  'certificate',
] as const;
export const CALCULATION_METHODS = [
  'arithmetic_mean',
  'percentile_95',
  'percentage',
  'sum',
  'uptime_percentage',
] as const;
export const WIDGET_TYPES = ['status_overview', 'check_list', 'metrics_chart'] as const;
export const METRIC_GROUPS = [
  'responseTimeMetrics',
  'successMetrics',
  'volumeMetrics',
  'browserSpecificMetrics',
  'heartbeatSpecificMetrics',
  /** DECISION (docs/certificates.md): a group beyond the spec's five. */
  'certificateMetrics',
] as const;
export type MetricGroupName = (typeof METRIC_GROUPS)[number];

export const PERIODS = ['1h', '6h', '24h', '7d', '30d'] as const;
export const PeriodSchema = z.enum(PERIODS);
export type Period = z.infer<typeof PeriodSchema>;

// ---------------------------------------------------------------- 2.1 check result

export const LocationRefSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  region: z.string(),
});
export type LocationRef = z.infer<typeof LocationRefSchema>;

const HeadersSchema = z.record(z.string(), z.string());

export const ResultRequestSchema = z.looseObject({
  method: z.string(),
  url: z.string(),
  headers: HeadersSchema,
  body: z.string().nullable(),
});

export const ResultResponseSchema = z.looseObject({
  statusCode: z.number().int(),
  statusText: z.string(),
  headers: HeadersSchema,
  body: z.string(),
  responseTime: z.number().int(),
  size: z.number().int(),
});
export type ResultResponse = z.infer<typeof ResultResponseSchema>;

export const ResultErrorSchema = z.looseObject({
  name: z.string(),
  message: z.string(),
  stack: z.string(),
});

export const AssertionSchema = z.looseObject({
  source: AssertionSourceSchema,
  property: z.string(),
  comparison: AssertionComparisonSchema,
  target: z.string(),
  passed: z.boolean(),
  actual: z.string().optional(),
});
export type Assertion = z.infer<typeof AssertionSchema>;

/**
 * DECISION: phases that a run never reached (a refused connection has no
 * firstByte; a TCP check has no download) are absent; `tls` is present only for
 * HTTPS, as the spec says. `total` is always present.
 */
export const TimingSchema = z.looseObject({
  dns: z.number().int().optional(),
  tcp: z.number().int().optional(),
  tls: z.number().int().optional(),
  firstByte: z.number().int().optional(),
  download: z.number().int().optional(),
  total: z.number().int(),
});
export type Timing = z.infer<typeof TimingSchema>;
export const TIMING_PHASES = ['dns', 'tcp', 'tls', 'firstByte', 'download'] as const;
export type TimingPhase = (typeof TIMING_PHASES)[number];

/**
 * Browser metrics a browser run measured. DECISION: the spec does not say where a
 * result carries them; ours carry them here, in the catalogue's units.
 */
export const ResultMetricsSchema = z.record(z.string(), z.number());

/**
 * DECISION (docs/certificates.md): the TLS certificate an HTTPS run was
 * shown, also on a failed TLS run where one was presented. `chainValidTo` is the
 * earliest expiry anywhere in the presented chain (an intermediate can expire
 * first); browser and multistep runs, which see only the leaf, carry null there.
 * `daysRemaining` is whole days, rounded down, negative once expired.
 */
export const ResultCertificateSchema = z.looseObject({
  subject: z.string(),
  issuer: z.string(),
  serialNumber: z.string().nullable(),
  validFrom: TimestampSchema,
  validTo: TimestampSchema,
  daysRemaining: z.number().int(),
  chainValidTo: TimestampSchema.nullable(),
  chainDaysRemaining: z.number().int().nullable(),
});
export type ResultCertificate = z.infer<typeof ResultCertificateSchema>;

export const CheckResultSchema = z.looseObject({
  id: z.string(),
  checkId: z.string(),
  checkName: z.string(),
  checkType: CheckTypeSchema,
  runId: z.string(),
  status: ResultStatusSchema,
  startedAt: TimestampSchema,
  finishedAt: TimestampSchema,
  duration: z.number().int(),
  location: LocationRefSchema,
  request: ResultRequestSchema,
  /** DECISION: null when no response arrived (refused, timed out, DNS failure). */
  response: ResultResponseSchema.nullable(),
  error: ResultErrorSchema.optional(),
  assertions: z.array(AssertionSchema),
  timing: TimingSchema,
  tags: z.array(z.string()),
  triggeredBy: TriggerSchema,
  metrics: ResultMetricsSchema.optional(),
  /**
   * DECISION: browser and multistep results say whether a screenshot of the page
   * was kept (every failed run; every run when the check sets `screenshot: always`);
   * it is served as image/png at /v1/check-results/{checkId}/{resultId}/screenshot.
   * Other check types leave it out.
   */
  hasScreenshot: z.boolean().optional(),
  /** DECISION: HTTPS, browser and multistep results; absent elsewhere (ResultCertificateSchema). */
  certificate: ResultCertificateSchema.nullable().optional(),
});
export type CheckResult = z.infer<typeof CheckResultSchema>;

export const ResultsSummarySchema = z.looseObject({
  totalRuns: z.number().int(),
  successfulRuns: z.number().int(),
  failedRuns: z.number().int(),
  successRate: z.number(),
  averageResponseTime: z.number(),
  p95ResponseTime: z.number(),
  p99ResponseTime: z.number(),
});
export type ResultsSummary = z.infer<typeof ResultsSummarySchema>;

const PageMetaShape = {
  currentPage: z.number().int(),
  totalPages: z.number().int(),
  totalItems: z.number().int(),
  limit: z.number().int(),
};

export const CheckResultsMetaSchema = z.looseObject({
  checkId: z.string(),
  checkName: z.string(),
  ...PageMetaShape,
  hasMore: z.boolean(),
  timeframe: z.looseObject({ from: TimestampSchema, to: TimestampSchema }),
  summary: ResultsSummarySchema.optional(),
});

export const CheckResultListSchema = z.looseObject({
  data: z.array(CheckResultSchema),
  meta: CheckResultsMetaSchema,
});
export type CheckResultList = z.infer<typeof CheckResultListSchema>;

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

/** `silence`: checks run, statuses are true, alerts are held. `pause`: checks do not run. */
export const MAINTENANCE_MODES = ['silence', 'pause'] as const;
export const MaintenanceModeSchema = z.enum(MAINTENANCE_MODES);
export type MaintenanceMode = z.infer<typeof MaintenanceModeSchema>;

/**
 * DECISION (docs/maintenance.md): on a check status, the active
 * maintenance window over it (the one ending last when several are), null when
 * none. `mode: pause`: the check does not run; its status is `unknown`, the
 * reason naming the window.
 */
export const CheckMaintenanceSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  endsAt: TimestampSchema,
  mode: MaintenanceModeSchema,
});
export type CheckMaintenance = z.infer<typeof CheckMaintenanceSchema>;

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
});
export type CheckStatus = z.infer<typeof CheckStatusSchema>;

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

export const CheckHistoryListSchema = z.looseObject({
  data: z.array(CheckHistoryBucketSchema),
  meta: z.looseObject({
    checkId: z.string(),
    period: z.enum(['7d', '30d', '90d']),
    granularity: z.enum(['hour', 'day']),
    from: TimestampSchema,
    to: TimestampSchema,
  }),
});
export type CheckHistoryList = z.infer<typeof CheckHistoryListSchema>;

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
 * DECISION: every list page (statuses, results, dashboards, alert channels) is
 * sent with an ETag, and If-None-Match naming it is answered 304 with no body
 * (README, "Conditional reads"); the results list's ETag leaves out
 * meta.timeframe, which a rolling period moves every millisecond.
 */
export const PageMetaSchema = z.looseObject(PageMetaShape);
export type PageMeta = z.infer<typeof PageMetaSchema>;

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

export const CheckStatusListSchema = z.looseObject({
  data: z.array(CheckStatusSchema),
  meta: z.looseObject({
    ...PageMetaShape,
    summary: StatusSummarySchema.optional(),
    /** The service's own health (docs/health.md): degraded, with why, while it cannot keep up. */
    service: ServiceHealthSchema.optional(),
  }),
});
export type CheckStatusList = z.infer<typeof CheckStatusListSchema>;

// ---------------------------------------------------------------- 2.3 dashboard

export const WidgetSchema = z.looseObject({
  type: openEnum(WIDGET_TYPES),
  position: z.number().int(),
  title: z.string(),
  settings: z.record(z.string(), z.unknown()),
});
export type Widget = z.infer<typeof WidgetSchema>;

export const DashboardSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  isPrivate: z.boolean(),
  customDomain: z.string().nullable(),
  customUrl: z.string(),
  tags: z.array(z.string()),
  checkIds: z.array(z.string()),
  checkGroupIds: z.array(z.string()),
  configuration: z.looseObject({
    theme: openEnum(['light', 'dark'] as const),
    logo: z.string().nullable(),
    refreshInterval: z.number().int(),
    showCheckResults: z.boolean(),
    showIncidents: z.boolean(),
    customCSS: z.string().nullable(),
  }),
  widgets: z.array(WidgetSchema),
  createdAt: TimestampSchema,
  updatedAt: TimestampSchema,
});
export type Dashboard = z.infer<typeof DashboardSchema>;

export const DashboardListSchema = z.looseObject({
  data: z.array(DashboardSchema),
  meta: PageMetaSchema,
});
export type DashboardList = z.infer<typeof DashboardListSchema>;

/**
 * DECISION: a check as the public read shows it: an explicit list of fields, never the
 * internal status minus a few (no tags, group, alerts, schedule, reasons, errors, runners).
 * `currentIncident` is there only when the dashboard's `showIncidents`, with a generic
 * title; `recentResults` (the newest 10 runs) only when its `showCheckResults`.
 */
export const PublicCheckStatusSchema = z.looseObject({
  checkId: z.string(),
  checkName: z.string(),
  checkType: CheckTypeSchema,
  status: CheckStatusValueSchema,
  availability: z.looseObject({ percentage: z.number().min(0).max(100).nullable(), period: z.string() }),
  performance: z.looseObject({
    averageResponseTime: z.number().nullable(),
    p95ResponseTime: z.number().nullable(),
    trend: TrendSchema,
  }),
  lastExecution: z
    .looseObject({ timestamp: TimestampSchema, status: ResultStatusSchema, responseTime: z.number() })
    .nullable(),
  locations: z.array(z.looseObject({ id: z.string(), name: z.string(), status: CheckStatusValueSchema })),
  currentIncident: IncidentSchema.nullable().optional(),
  recentResults: z
    .array(
      z.looseObject({ startedAt: TimestampSchema, status: ResultStatusSchema, responseTime: z.number() }),
    )
    .optional(),
});
export type PublicCheckStatus = z.infer<typeof PublicCheckStatusSchema>;

/**
 * DECISION: a maintenance window as the public read shows it (docs/status-page.md): one
 * over the dashboard's checks, active or starting within 7 days; its current or next
 * occurrence; the dashboard's checks it covers. Never its reason, id, author or scope.
 */
export const PublicMaintenanceSchema = z.looseObject({
  name: z.string(),
  startsAt: TimestampSchema,
  endsAt: TimestampSchema,
  state: z.enum(['active', 'scheduled']),
  checkIds: z.array(z.string()),
});
export type PublicMaintenance = z.infer<typeof PublicMaintenanceSchema>;

/** DECISION: the public read, GET /v1/public/dashboards/{customUrl}; `maintenance` is ours (docs/maintenance.md). */
export const PublicDashboardSchema = z.looseObject({
  data: z.looseObject({
    dashboard: DashboardSchema,
    checks: z.array(PublicCheckStatusSchema),
    maintenance: z.array(PublicMaintenanceSchema).optional(),
  }),
});
export type PublicDashboard = z.infer<typeof PublicDashboardSchema>;

// ---------------------------------------------------------------- 2.4 alert channel

export const CHANNEL_TYPES = ['EMAIL', 'CHAT', 'WEBHOOK', 'SMS', 'PHONE'] as const;
export const ChannelTypeSchema = z.enum(CHANNEL_TYPES);
export type ChannelType = z.infer<typeof ChannelTypeSchema>;

export const WEBHOOK_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'] as const;

const httpUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http:// or https:// address' })
  .max(2048)
  // A password in the URL shows wherever the URL does (lists, logs): a header keeps it apart.
  .refine(
    (u) => !/^[a-z]+:\/\/[^/?#]*@/i.test(u),
    'must not carry credentials (user:pass@): send them in a header instead',
  );
/** E.164: a plus, a country code that does not start with 0, at most 15 digits in all. */
const e164 = z
  .string()
  .regex(/^\+[1-9]\d{6,14}$/, 'must be E.164: + then country code and number, e.g. +14155550123');
const KeyValueSchema = z.object({
  key: z.string().trim().min(1, 'must not be empty').max(256),
  value: z.string().max(4096),
});
// A CR or LF in a header would end it and start another (header injection).
const noLineBreak = (s: z.ZodString) =>
  s.refine((v) => !/[\r\n]/.test(v), 'must not contain a line break (CR or LF)');
const HeaderSchema = z.object({
  key: noLineBreak(z.string().trim().min(1, 'must not be empty').max(256)),
  value: noLineBreak(z.string().max(4096)),
});

export const EmailConfigSchema = z.object({
  address: z.email({ error: 'must be a valid e-mail address' }).max(320),
});
export const ChatConfigSchema = z.object({
  url: httpUrl,
  channel: z
    .string()
    .regex(/^#\S+$/, 'must start with # and have no spaces, e.g. #ops')
    .max(80)
    .optional(),
});
export const WebhookConfigSchema = z.object({
  url: httpUrl,
  method: z.enum(WEBHOOK_METHODS, { error: `must be one of ${WEBHOOK_METHODS.join(', ')}` }),
  headers: z.array(HeaderSchema).max(50).optional(),
  queryParameters: z.array(KeyValueSchema).max(50).optional(),
});
export const PhoneConfigSchema = z.object({
  number: e164,
  name: z.string().trim().min(1, 'must not be empty').max(200),
});

const channelName = z.string().trim().min(1, 'must not be empty').max(200);

/** The POST body of 4.5, a discriminated union on `type`. */
export const AlertChannelCreateSchema = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.literal('EMAIL'), name: channelName, config: EmailConfigSchema }),
    z.object({ type: z.literal('CHAT'), name: channelName, config: ChatConfigSchema }),
    z.object({ type: z.literal('WEBHOOK'), name: channelName, config: WebhookConfigSchema }),
    z.object({ type: z.literal('SMS'), name: channelName, config: PhoneConfigSchema }),
    z.object({ type: z.literal('PHONE'), name: channelName, config: PhoneConfigSchema }),
  ],
  { error: `type must be one of ${CHANNEL_TYPES.join(', ')}` },
);
export type AlertChannelCreate = z.infer<typeof AlertChannelCreateSchema>;
export type AlertChannelConfig = AlertChannelCreate['config'];

/** DECISION (docs/certificates.md): `certificate`, a certificate of the check expiring (docs/certificates.md). */
export const ALERT_EVENTS = ['failure', 'recovery', 'degraded', 'reminder', 'test', 'certificate'] as const;
export const AlertEventSchema = z.enum(ALERT_EVENTS);
export type AlertEvent = z.infer<typeof AlertEventSchema>;

export const NOTIFICATION_STATUSES = ['pending', 'sent', 'failed', 'suppressed'] as const;
export const NotificationStatusSchema = z.enum(NOTIFICATION_STATUSES);
export type NotificationStatus = z.infer<typeof NotificationStatusSchema>;

export const LastDeliverySchema = z.looseObject({
  id: z.string(),
  event: AlertEventSchema,
  status: NotificationStatusSchema,
  at: TimestampSchema,
});

/** A stored channel as the list and the POST answer return it (2.4). */
export const AlertChannelSchema = z.looseObject({
  id: z.number().int(),
  type: ChannelTypeSchema,
  name: z.string(),
  createdAt: TimestampSchema,
  updatedAt: TimestampSchema,
  config: z.record(z.string(), z.unknown()),
  /** DECISION: the checks and groups it serves (absent from services that do not say). */
  subscriptions: z.looseObject({ checks: z.array(z.string()), groups: z.array(z.string()) }).optional(),
  /**
   * DECISION: a WEBHOOK channel's HMAC key for X-Checkwall-Signature: whole in the
   * POST answer only, masked (`whsec_•••` and its last 4) in every later answer.
   */
  signingSecret: z.string().optional(),
  /** DECISION: in the list, the newest delivery and the failed ones of the last 24 h. */
  lastDelivery: LastDeliverySchema.nullable().optional(),
  failures24h: z.number().int().optional(),
});
export type AlertChannel = z.infer<typeof AlertChannelSchema>;

export const AlertChannelListSchema = z.looseObject({
  data: z.array(AlertChannelSchema),
  meta: PageMetaSchema,
});
export type AlertChannelList = z.infer<typeof AlertChannelListSchema>;

// ---------------------------------------------------------------- alert delivery (DECISION, not shown)

/** DECISION: what a channel serves; a group covers its checks, also ones added later. */
export const SubscriptionsSchema = z.strictObject({
  checks: z.array(z.string().min(1).max(200)).max(1000).default([]),
  groups: z.array(z.string().min(1).max(200)).max(1000).default([]),
});
export type Subscriptions = z.output<typeof SubscriptionsSchema>;

/** DECISION: the POST body of 4.5 may carry `subscriptions`. */
export const AlertChannelCreateBodySchema = z.intersection(
  AlertChannelCreateSchema,
  z.object({ subscriptions: SubscriptionsSchema.optional() }),
);
export type AlertChannelCreateBody = z.input<typeof AlertChannelCreateBodySchema>;

/**
 * DECISION: the JSON body of a WEBHOOK delivery (methods that carry a body), the
 * same for every event. `check` and `status` are null for a `test` event.
 */
export const AlertPayloadSchema = z.looseObject({
  event: AlertEventSchema,
  deliveryId: z.string(),
  alertId: z.string().nullable(),
  check: z.looseObject({ id: z.string(), name: z.string(), type: CheckTypeSchema }).nullable(),
  status: CheckStatusValueSchema.nullable(),
  failingLocations: z.array(z.looseObject({ id: z.string(), name: z.string() })),
  error: z.string().nullable(),
  resultId: z.string().nullable(),
  incidentId: z.string().nullable(),
  occurredAt: TimestampSchema,
  /** The result at the service, when the service knows its public address (`publicUrl`). */
  link: z.string().nullable(),
  /** Reminders only: which one (1, 2, ...). */
  reminder: z.number().int().optional(),
  /**
   * DECISION (docs/maintenance.md): the page sent when a maintenance window
   * ends over a check still failing: the window, and since when the check fails.
   */
  maintenance: z.looseObject({ id: z.string(), name: z.string(), failingSince: TimestampSchema }).optional(),
  /**
   * `certificate` events only: the certificate that expires first (`chain`: an
   * intermediate, before the leaf), the threshold crossed, and where it was seen.
   */
  certificate: z
    .looseObject({
      subject: z.string(),
      issuer: z.string(),
      validTo: TimestampSchema,
      daysRemaining: z.number().int(),
      chain: z.boolean(),
      threshold: z.number().int(),
      location: z.looseObject({ id: z.string(), name: z.string() }),
    })
    .optional(),
  channel: z.looseObject({ id: z.number().int(), name: z.string() }),
});
export type AlertPayload = z.infer<typeof AlertPayloadSchema>;

/** DECISION: one record of GET /v1/alert-notifications, the delivery log. */
export const AlertNotificationSchema = z.looseObject({
  id: z.string(),
  event: AlertEventSchema,
  status: NotificationStatusSchema,
  channel: z.looseObject({ id: z.number().int(), name: z.string(), type: ChannelTypeSchema }),
  check: z.looseObject({ id: z.string(), name: z.string() }).nullable(),
  alertId: z.string().nullable(),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  createdAt: TimestampSchema,
  sentAt: TimestampSchema.nullable(),
  nextAttemptAt: TimestampSchema.nullable(),
});
export type AlertNotification = z.infer<typeof AlertNotificationSchema>;

export const AlertNotificationListSchema = z.looseObject({
  data: z.array(AlertNotificationSchema),
  meta: PageMetaSchema,
});
export type AlertNotificationList = z.infer<typeof AlertNotificationListSchema>;

/** DECISION: the answer of POST /v1/check-alerts/{alertId}/acknowledge. */
export const CheckAlertSchema = z.looseObject({
  id: z.string(),
  checkId: z.string(),
  openedAt: TimestampSchema,
  resolvedAt: TimestampSchema.nullable(),
  acknowledgedAt: TimestampSchema.nullable(),
  remindersSent: z.number().int(),
});
export type CheckAlert = z.infer<typeof CheckAlertSchema>;

// ---------------------------------------------------------------- 2.5 metric catalogue

export const MetricDefinitionSchema = z.looseObject({
  name: z.string(),
  displayName: z.string(),
  description: z.string(),
  unit: openEnum(METRIC_UNITS),
  dataType: openEnum(['number', 'integer'] as const),
  availableFor: z.array(CheckTypeSchema),
  calculationMethod: openEnum(CALCULATION_METHODS),
  precision: z.number().int().optional(),
  range: z.looseObject({ min: z.number(), max: z.number() }).optional(),
  category: openEnum(METRIC_CATEGORIES).optional(),
  goodThreshold: z.number().optional(),
  needsImprovementThreshold: z.number().optional(),
  /** DECISION: present with includeExamples=true. */
  examples: z.array(z.looseObject({ value: z.number(), useCase: z.string() })).optional(),
  /** DECISION: present with includeCalculations=true, a sentence on how it is computed. */
  calculation: z.string().optional(),
});
export type MetricDefinition = z.infer<typeof MetricDefinitionSchema>;

const metricGroup = z.array(MetricDefinitionSchema).default([]);
export const MetricCatalogueSchema = z.looseObject({
  data: z.looseObject({
    responseTimeMetrics: metricGroup,
    successMetrics: metricGroup,
    volumeMetrics: metricGroup,
    browserSpecificMetrics: metricGroup,
    heartbeatSpecificMetrics: metricGroup,
    certificateMetrics: metricGroup,
  }),
  meta: z.looseObject({
    totalMetrics: z.number().int(),
    categories: z.array(z.string()),
    checkTypes: z.array(z.string()),
  }),
});
export type MetricCatalogue = z.infer<typeof MetricCatalogueSchema>;

// ---------------------------------------------------------------- errors (DECISION, section 7)

export const ApiErrorBodySchema = z.looseObject({
  statusCode: z.number().int(),
  error: z.string(),
  message: z.string(),
  details: z.array(z.looseObject({ path: z.string(), message: z.string() })).optional(),
  /**
   * A 403 of a key whose role is not enough: the role the request needs
   * (read, operate or admin; action-schemas.ts ROLES, docs/roles.md).
   */
  requiredRole: z.string().optional(),
});
export type ApiErrorBody = z.infer<typeof ApiErrorBodySchema>;

// ---------------------------------------------------------------- query parameters (section 4)
// Each accepts the typed value (from our client) or its string form (from a URL),
// so one schema serves both sides. z.input is what a caller may pass.

const qInt = (min: number, max: number) =>
  z
    .union([
      z.number(),
      z
        .string()
        .trim()
        .regex(/^-?\d+$/, 'must be a whole number'),
    ])
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));
const qNumber = (min: number, max: number) =>
  z
    .union([
      z.number(),
      z
        .string()
        .trim()
        .regex(/^-?\d+(\.\d+)?$/, 'must be a number'),
    ])
    .transform(Number)
    .pipe(z.number().min(min).max(max));
export const qBoolean = z.union([
  z.boolean(),
  z.enum(['true', 'false'], { error: 'must be true or false' }).transform((v) => v === 'true'),
]);
const qList = z
  .union([z.array(z.string()), z.string().transform((s) => s.split(','))])
  .transform((items) => items.map((t) => t.trim()).filter((t) => t.length > 0));
const qDate = z.union([z.iso.datetime({ offset: true }), z.iso.date()], {
  error: 'must be an ISO 8601 date or timestamp',
});
const MAX_MS = 86_400_000;
const pageParams = {
  page: qInt(1, 1_000_000).default(1),
  limit: qInt(1, 100).default(10),
};

export const CheckResultsQuerySchema = z
  .object({
    from: qDate.optional(),
    to: qDate.optional(),
    period: PeriodSchema.optional(),
    status: ResultStatusSchema.optional(),
    location: z.string().min(1).optional(),
    triggeredBy: TriggerSchema.optional(),
    responseTimeMin: qInt(0, MAX_MS).optional(),
    responseTimeMax: qInt(0, MAX_MS).optional(),
    ...pageParams,
    sortBy: z.enum(['startedAt', 'duration', 'responseTime']).default('startedAt'),
    sortOrder: z.enum(['asc', 'desc']).default('desc'),
    includeSummary: qBoolean.default(true),
  })
  .refine((q) => !(q.period && (q.from || q.to)), {
    message: 'give either period or from/to, not both',
    path: ['period'],
  })
  .refine((q) => !q.from || !q.to || Date.parse(q.from) <= Date.parse(q.to), {
    message: 'from must not be after to',
    path: ['from'],
  });
export type CheckResultsQuery = z.input<typeof CheckResultsQuerySchema>;

/** DECISION (docs/status-page.md): a check's history from its roll-ups; hours are kept for 7 days only. */
export const HISTORY_PERIODS = ['7d', '30d', '90d'] as const;
export const CheckHistoryQuerySchema = z
  .object({
    period: z.enum(HISTORY_PERIODS).default('30d'),
    granularity: z.enum(['hour', 'day']).default('day'),
    location: z.string().min(1).max(200).optional(),
  })
  .refine((q) => q.granularity === 'day' || q.period === '7d', {
    message: 'hourly history is kept for 7 days only: use period=7d, or granularity=day',
    path: ['granularity'],
  });
export type CheckHistoryQuery = z.input<typeof CheckHistoryQuerySchema>;

export const STATUS_SORTS = ['name', 'status', 'availability', 'responseTime', 'lastExecution'] as const;
export const CheckStatusesQuerySchema = z.object({
  status: z.enum(['passing', 'failing', 'degraded', 'unknown']).optional(),
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
  ...pageParams,
  sortBy: z.enum(STATUS_SORTS).default('lastExecution'),
  /** DECISION: default `asc` for name, `desc` (worst, slowest, newest first) for the rest. */
  sortOrder: z.enum(['asc', 'desc']).optional(),
  includeSummary: qBoolean.default(true),
});
export type CheckStatusesQuery = z.input<typeof CheckStatusesQuerySchema>;

/** DECISION: the dashboard list pages like the others. */
export const DashboardsQuerySchema = z.object({
  tags: qList.optional(),
  isPrivate: qBoolean.optional(),
  ...pageParams,
});
export type DashboardsQuery = z.input<typeof DashboardsQuerySchema>;

/** DECISION: the alert channel list pages like the others, oldest first. */
export const AlertChannelsQuerySchema = z.object({ ...pageParams });
export type AlertChannelsQuery = z.input<typeof AlertChannelsQuerySchema>;

/** DECISION: the delivery log pages like the others, newest first. */
export const AlertNotificationsQuerySchema = z
  .object({
    checkId: z.string().min(1).max(200).optional(),
    channelId: qInt(1, Number.MAX_SAFE_INTEGER).optional(),
    status: NotificationStatusSchema.optional(),
    from: qDate.optional(),
    to: qDate.optional(),
    ...pageParams,
  })
  .refine((q) => !q.from || !q.to || Date.parse(q.from) <= Date.parse(q.to), {
    message: 'from must not be after to',
    path: ['from'],
  });
export type AlertNotificationsQuery = z.input<typeof AlertNotificationsQuerySchema>;

export const METRICS_PATH_TYPES = ['API', 'URL', 'TCP', 'BROWSER', 'HEARTBEAT', 'MULTISTEP'] as const;
/** The path parameter of 4.6, case-insensitive; normalised to our lower-case check type. */
export const MetricsCheckTypeSchema = z
  .string()
  .transform((s) => s.toUpperCase())
  .pipe(z.enum(METRICS_PATH_TYPES, { error: `must be one of ${METRICS_PATH_TYPES.join(', ')}` }))
  .transform((s) => s.toLowerCase() as (typeof CHECK_TYPES)[number]);

/** DECISION on "not stated" defaults: thresholds and calculations on, examples off. */
export const MetricsQuerySchema = z.object({
  category: z.string().min(1).optional(),
  includeThresholds: qBoolean.default(true),
  format: z.enum(['detailed', 'summary']).default('detailed'),
  includeExamples: qBoolean.default(false),
  includeCalculations: qBoolean.default(true),
});
export type MetricsQuery = z.input<typeof MetricsQuerySchema>;

// ---------------------------------------------------------------- zod errors

/**
 * A zod path as the API's details name it: `config.headers[0].key`; or, for
 * files people write (the service's config, the settings), `accounts.0.checks`.
 * '' for the whole value.
 */
export function formatPath(path: ReadonlyArray<PropertyKey>, dotted = false): string {
  let out = '';
  for (const part of path)
    out += typeof part === 'number' && !dotted ? `[${part}]` : `${out === '' ? '' : '.'}${String(part)}`;
  return out;
}

/**
 * The one way a zod failure is told, wherever it happens (a 400's details, a
 * config file, the settings file, an answer the client cannot read, the
 * channel form): each issue as its path and message. `prefix` goes before
 * every path (e.g. `query.`).
 */
export function zodIssues(
  error: z.ZodError,
  prefix = '',
  dotted = false,
): Array<{ path: string; message: string }> {
  // An unknown key (from a strict object) is told at its own path, one per key: a
  // typo is found where it was typed, not at the object around it.
  return error.issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({
          path: prefix + formatPath([...issue.path, key], dotted),
          message: `unknown key "${key}"`,
        }))
      : [{ path: prefix + formatPath(issue.path, dotted), message: issue.message }],
  );
}

export interface IssueText {
  separator?: string;
  /** What the whole value is called when an issue is about it. */
  root?: string;
  limit?: number;
  dotted?: boolean;
  /** Said after an unknown key's message, e.g. where the keys come from. */
  unknownKeyHint?: string;
}

/** The first `limit` issues as text, `path: message` joined by `separator`. */
export function describeIssues(
  error: z.ZodError,
  { separator = '; ', root = '(root)', limit = Infinity, dotted = false, unknownKeyHint }: IssueText = {},
): string {
  const hint = unknownKeyHint ? ` (${unknownKeyHint})` : '';
  return zodIssues(error, '', dotted)
    .slice(0, limit)
    .map((i) => `${i.path || root}: ${i.message}${i.message.startsWith('unknown key') ? hint : ''}`)
    .join(separator);
}
