// The service's configuration file (YAML or JSON), validated at start.
// This is the contract between the config loader, the scheduler/runners, the
// status engine and the HTTP routes.
import { z } from 'zod';
import {
  ASSERTION_COMPARISONS,
  ASSERTION_SOURCES,
  AlertChannelCreateSchema,
  CHECK_TYPES,
  WIDGET_TYPES,
} from '../api/schemas.js';

const id = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'must be 1-64 letters, digits, . _ or -');

/** "30s", "1m", "5m", "1h": the spec's short interval form. */
export const FrequencySchema = z
  .string()
  .regex(/^\d+(s|m|h)$/, 'must be a number and a unit, e.g. 30s, 1m, 5m, 1h');

export function frequencyToMs(frequency: string): number {
  const n = Number.parseInt(frequency, 10);
  const unit = frequency.at(-1);
  return n * (unit === 'h' ? 3_600_000 : unit === 'm' ? 60_000 : 1_000);
}

export const LocationConfigSchema = z.object({
  id,
  name: z.string().min(1),
  region: z.string().min(1),
});
export type LocationConfig = z.infer<typeof LocationConfigSchema>;

export const GroupConfigSchema = z.object({ id, name: z.string().min(1) });
export type GroupConfig = z.infer<typeof GroupConfigSchema>;

export const AssertionConfigSchema = z.object({
  source: z.enum(ASSERTION_SOURCES),
  property: z.string().default(''),
  comparison: z.enum(ASSERTION_COMPARISONS),
  target: z.string().default(''),
});
export type AssertionConfig = z.infer<typeof AssertionConfigSchema>;

export const CheckConfigSchema = z.object({
  id,
  name: z.string().min(1).max(200),
  type: z.enum(CHECK_TYPES),
  /**
   * api/url/browser/multistep: an http(s) URL; tcp: host:port;
   * heartbeat: unused (pinged at /v1/heartbeats/{token}).
   */
  target: z.string().default(''),
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD']).default('GET'),
  headers: z.record(z.string(), z.string()).default({}),
  body: z.string().nullable().default(null),
  /** tcp: optional data to send after connecting, and a string expected back. */
  send: z.string().optional(),
  expect: z.string().optional(),
  /** heartbeat: the secret token of its ping URL, the expected period and grace. */
  token: z.string().min(8).optional(),
  grace: FrequencySchema.optional(),
  frequency: FrequencySchema.default('1m'),
  locations: z.array(id).min(1),
  assertions: z.array(AssertionConfigSchema).default([]),
  tags: z.array(z.string()).default([]),
  group: id.optional(),
  timeoutMs: z.number().int().min(100).max(120_000).default(10_000),
  /** Response-time thresholds (ms) above which a check is degraded / failing. */
  degradedMs: z.number().int().positive().optional(),
  failingMs: z.number().int().positive().optional(),
  /** Accept self-signed certificates (the demo's HTTPS target). */
  insecureTls: z.boolean().default(false),
  enabled: z.boolean().default(true),
});
export type CheckConfig = z.infer<typeof CheckConfigSchema>;

export const DashboardConfigSchema = z.object({
  id,
  name: z.string().min(1),
  description: z.string().default(''),
  isPrivate: z.boolean().default(true),
  customDomain: z.string().nullable().default(null),
  customUrl: z.string().regex(/^[a-z0-9-]+$/, 'must be a lower-case slug'),
  tags: z.array(z.string()).default([]),
  checkIds: z.array(id).default([]),
  checkGroupIds: z.array(id).default([]),
  configuration: z
    .object({
      theme: z.string().default('dark'),
      logo: z.string().nullable().default(null),
      refreshInterval: z.number().int().positive().default(60),
      showCheckResults: z.boolean().default(true),
      showIncidents: z.boolean().default(true),
      customCSS: z.string().nullable().default(null),
    })
    .prefault({}),
  widgets: z
    .array(
      z.object({
        type: z.union([z.enum(WIDGET_TYPES), z.string()]),
        position: z.number().int(),
        title: z.string(),
        settings: z.record(z.string(), z.unknown()).default({}),
      }),
    )
    .default([]),
});
export type DashboardConfig = z.infer<typeof DashboardConfigSchema>;

export const AccountConfigSchema = z.object({
  id: z.uuid(),
  name: z.string().default('account'),
  apiKeys: z.array(z.string().min(16, 'must be at least 16 characters')).min(1),
  maxAlertChannels: z.number().int().min(0).default(10),
  /** Everything below belongs to this account. */
  locations: z.array(LocationConfigSchema).default([]),
  groups: z.array(GroupConfigSchema).default([]),
  checks: z.array(CheckConfigSchema).default([]),
  dashboards: z.array(DashboardConfigSchema).default([]),
  alertChannels: z.array(AlertChannelCreateSchema).default([]),
});
export type AccountConfig = z.infer<typeof AccountConfigSchema>;

export const ServiceConfigSchema = z.object({
  accounts: z.array(AccountConfigSchema).default([]),
  retentionDays: z.number().int().min(1).max(3650).default(30),
  /** Runs executing at once, across all checks and locations. */
  maxConcurrentRuns: z.number().int().min(1).max(1000).default(16),
  /** Response bodies are stored up to this many bytes (the real size is kept too). */
  maxStoredBodyBytes: z.number().int().min(0).default(65_536),
});
export type ServiceConfig = z.infer<typeof ServiceConfigSchema>;
