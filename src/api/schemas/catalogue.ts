// 2.5 of the spec: the metric catalogue, its units, categories and groups; the
// path parameter and query of 4.6.
import { z } from 'zod';
import { openEnum, qBoolean } from './common.js';
import { CheckTypeSchema, type CHECK_TYPES } from './enums.js';

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

export const METRICS_PATH_TYPES = ['API', 'URL', 'TCP', 'BROWSER', 'HEARTBEAT', 'MULTISTEP'] as const;
/** The path parameter of 4.6, case-insensitive; normalised to our lower-case check type. */
export const MetricsCheckTypeSchema = z
  .string()
  .transform((s) => s.toUpperCase())
  .pipe(z.enum(METRICS_PATH_TYPES, { error: `must be one of ${METRICS_PATH_TYPES.join(', ')}` }))
  .transform((s) => s.toLowerCase() as (typeof CHECK_TYPES)[number]);

/**
 * DECISION on "not stated" defaults: thresholds and calculations on, examples off. A
 * category this service does not have is refused naming those it has (a typo is not an
 * empty catalogue); one it has that no metric of the check type is in is an empty one.
 */
export const MetricsQuerySchema = z.strictObject({
  category: z.enum(METRIC_CATEGORIES, { error: `must be one of ${METRIC_CATEGORIES.join(', ')}` }).optional(),
  includeThresholds: qBoolean.default(true),
  format: z.enum(['detailed', 'summary']).default('detailed'),
  includeExamples: qBoolean.default(false),
  includeCalculations: qBoolean.default(true),
});
/** What a client asks: any category by name (another server may have more than this one). */
export type MetricsQuery = Omit<z.input<typeof MetricsQuerySchema>, 'category'> & {
  category?: string | undefined;
};
