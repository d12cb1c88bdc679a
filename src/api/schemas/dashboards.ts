// 2.3 of the spec: dashboards and their list; the public read of one, with its
// explicit projections of a check and of a maintenance window; the list's query.
import { z } from 'zod';
import { listOf, openEnum, PageMetaSchema, pageQuery, qBoolean, qList, TimestampSchema } from './common.js';
import { CheckStatusValueSchema, CheckTypeSchema, ResultStatusSchema, TrendSchema } from './enums.js';
import { IncidentSchema } from './statuses.js';

export const WIDGET_TYPES = ['status_overview', 'check_list', 'metrics_chart'] as const;

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

export const DashboardListSchema = listOf(DashboardSchema, PageMetaSchema);
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

/** DECISION: the dashboard list pages like the others. */
export const DashboardsQuerySchema = z.strictObject({
  tags: qList.optional(),
  isPrivate: qBoolean.optional(),
  ...pageQuery(),
});
export type DashboardsQuery = z.input<typeof DashboardsQuerySchema>;
