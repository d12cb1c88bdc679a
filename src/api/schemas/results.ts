// 2.1 of the spec: one run of a check, its request, response, assertions, timing
// and certificate; the results list and its query.
import { z } from 'zod';
import {
  listOf,
  MAX_MS,
  openEnum,
  PageMetaSchema,
  pageQuery,
  qBoolean,
  qDate,
  fromNotAfterTo,
  qInt,
  rangeInOrder,
  TimestampSchema,
} from './common.js';
import { CheckTypeSchema, PeriodSchema, ResultStatusSchema, TriggerSchema } from './enums.js';
import { CHECK_LINK_FIELDS } from './statuses.js';
import { HeartbeatRunSchema } from './heartbeats.js';

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

/**
 * DECISION (docs/service.md, "The probe's rules"): a redirect an api/url run followed:
 * the URL asked, its 3xx answer, and that request's own phases (no download: a
 * redirect's body is not read). The run's `timing` sums them with the final answer's.
 */
export const ResultRedirectSchema = z.looseObject({
  url: z.string(),
  statusCode: z.number().int().nullable(),
  timing: TimingSchema.omit({ total: true }),
});
export type ResultRedirect = z.infer<typeof ResultRedirectSchema>;

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
  /**
   * DECISION: the redirects an api/url run followed, in order, before `response` (the
   * final answer); absent when there were none. `request.url` stays the check's URL.
   */
  redirects: z.array(ResultRedirectSchema).optional(),
  /**
   * DECISION: an api/url answer's body size once decoded (gzip, deflate, br), beside
   * `response.size`, the bytes on the wire; counted up to 64 MiB, and then
   * `decodedSizeCapped` is true.
   */
  decodedSize: z.number().int().optional(),
  decodedSizeCapped: z.boolean().optional(),
  /** DECISION: the check's runbook and links, as on its status (CHECK_LINK_FIELDS). */
  ...CHECK_LINK_FIELDS,
  /** DECISION: a heartbeat run's end, exit code and /start (heartbeats.ts). */
  heartbeat: HeartbeatRunSchema.optional(),
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

export const CheckResultsMetaSchema = z.looseObject({
  checkId: z.string(),
  checkName: z.string(),
  ...PageMetaSchema.shape,
  hasMore: z.boolean(),
  timeframe: z.looseObject({ from: TimestampSchema, to: TimestampSchema }),
  summary: ResultsSummarySchema.optional(),
});

export const CheckResultListSchema = listOf(CheckResultSchema, CheckResultsMetaSchema);
export type CheckResultList = z.infer<typeof CheckResultListSchema>;

export const CheckResultsQuerySchema = z
  .strictObject({
    from: qDate.optional(),
    to: qDate.optional(),
    period: PeriodSchema.optional(),
    status: ResultStatusSchema.optional(),
    location: z.string().min(1).optional(),
    triggeredBy: TriggerSchema.optional(),
    responseTimeMin: qInt(0, MAX_MS).optional(),
    responseTimeMax: qInt(0, MAX_MS).optional(),
    ...pageQuery(),
    sortBy: z.enum(['startedAt', 'duration', 'responseTime']).default('startedAt'),
    sortOrder: z.enum(['asc', 'desc']).default('desc'),
    includeSummary: qBoolean.default(true),
  })
  .refine((q) => !(q.period && (q.from || q.to)), {
    message: 'give either period or from/to, not both',
    path: ['period'],
  })
  .refine(...fromNotAfterTo)
  .refine(...rangeInOrder('responseTimeMin', 'responseTimeMax'));
export type CheckResultsQuery = z.input<typeof CheckResultsQuerySchema>;
