// The service's configuration file (YAML or JSON), validated at start.
// This is the contract between the config loader, the scheduler/runners, the
// status engine and the HTTP routes.
import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import {
  ALERT_CHANNEL_VARIANTS,
  ASSERTION_COMPARISONS,
  ASSERTION_SOURCES,
  CHANNEL_TYPE_ERROR,
  CHECK_TYPES,
  CONFIG_WEBHOOK_KEY_VALUES,
  HeaderRecordSchema,
  PathParamSchema,
  SubscriptionsSchema,
  WIDGET_TYPES,
} from '../../api/schemas/index.js';
import { RoleSchema } from '../../api/schemas/actions.js';
import { MaintenanceCreateSchema } from '../../api/schemas/maintenance.js';
import { isTimeZone } from '../../domain/maintenance.js';
import { MAX_PATH_PARAM_LENGTH } from '../../domain/path-limits.js';
import { digestOf } from './digest.js';
import { AlertSettingsSchema } from './alert-settings.js';
import { PROBE_KEYS } from './probe-keys.js';
import { DEPENDENCY_KEYS, refineDependencies } from './dependency-keys.js';
import { unknownSubscriptions } from './subscription-check.js';
import { OUTAGE_KEYS } from './outage-keys.js';
import { RUNBOOK_KEYS } from './runbook-keys.js';
import { CheckFrequencySchema, FrequencySchema, frequencyToMs, runPeriodProblem } from './frequency.js';
import { AllowedHostSchema } from './host-keys.js';
import { HEARTBEAT_KEYS, heartbeatInput, refineHeartbeat } from './heartbeat-keys.js';
import { refineChannel } from './channel-checks.js';

export { AlertSettingsSchema };

// Every object here is strict: an unknown key (a typo such as `frequncy:`, or a
// setting this version does not have) is an error naming its path, never a
// silently ignored line that turns a check or an alert off.

const id = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'must be 1-64 letters, digits, . _ or -');

export { FrequencySchema, frequencyToMs };

export const LocationConfigSchema = z.strictObject({
  id,
  name: z.string().min(1),
  region: z.string().min(1),
  /**
   * Run only by `checkwall runner` processes of this location (another region, a
   * private network), never by the service itself; heartbeats are still judged here.
   */
  remote: z.boolean().default(false),
  /**
   * A remote location's runner token (or CHECKWALL_RUNNER_TOKEN_<ID>, see
   * config/load.ts). It opens /v1/runner/ for this location and nothing else.
   */
  runnerToken: z.string().min(16, 'must be at least 16 characters').optional(),
});
export type LocationConfig = z.infer<typeof LocationConfigSchema>;
/** Where a run happens, as runners and results see it: never the runner token. */
export type RunLocation = Pick<LocationConfig, 'id' | 'name' | 'region'>;

const groupName = z.string().min(1);
export const GroupConfigSchema = z.strictObject({ id, name: groupName, ...RUNBOOK_KEYS, ...DEPENDENCY_KEYS });
export type GroupConfig = z.infer<typeof GroupConfigSchema>;

const CERTIFICATE_PROPERTIES = ['daysRemaining', 'chainDaysRemaining'];

export const AssertionConfigSchema = z
  .strictObject({
    source: z.enum(ASSERTION_SOURCES),
    property: z.string().default(''),
    comparison: z.enum(ASSERTION_COMPARISONS),
    target: z.string().default(''),
  })
  .superRefine((a, ctx) => {
    if (a.source !== 'CERTIFICATE') return;
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (!CERTIFICATE_PROPERTIES.includes(a.property))
      issue('property', `a CERTIFICATE assertion's property is ${CERTIFICATE_PROPERTIES.join(' or ')}`);
    if (a.comparison !== 'GREATER_THAN' && a.comparison !== 'LESS_THAN')
      issue('comparison', 'a CERTIFICATE assertion compares with GREATER_THAN or LESS_THAN');
    if (!/^-?\d+$/.test(a.target)) issue('target', 'must be a whole number of days, e.g. "14"');
  });
export type AssertionConfig = z.infer<typeof AssertionConfigSchema>;

/** A string a step cannot do without; "is required" says more than zod's "expected string". */
const required = (what: string) =>
  z.string({
    error: (issue) => (issue.input === undefined ? `${what} is required` : `${what} must be a string`),
  });
const selector = required('a selector').min(
  1,
  'must be a selector, e.g. "#email", "text=Sign up" or "role=button"',
);
const STEP_ACTIONS = 'goto, click, fill, type, press, select, waitFor, assertText, assertVisible, assertUrl';
const step = <A extends string, S extends z.ZodRawShape>(action: A, shape: S) =>
  z.strictObject({ action: z.literal(action), ...shape });

/**
 * One step of a multistep check's journey, run in order in one page.
 * Selectors are Playwright's (CSS, `text=`, `role=button[name="Buy"]`, ...);
 * a step acts on the first element that matches.
 */
export const StepSchema = z.discriminatedUnion(
  'action',
  [
    step('goto', {
      url: required('a url').regex(/^(https?:\/\/|\/)/, 'must be an http(s) URL or a path starting with /'),
    }),
    step('click', { selector }),
    /** Replaces the field's value at once. */
    step('fill', { selector, text: required('the text to fill in') }),
    /** Key by key, for fields that react to each key. */
    step('type', { selector, text: required('the text to type') }),
    /** A key ("Enter", "Tab", "Control+A"), to the element or, without a selector, to the page. */
    step('press', {
      selector: selector.optional(),
      key: required('a key, e.g. "Enter"').min(1, 'must be a key'),
    }),
    /** An option of a <select>, by its value or its label. */
    step('select', { selector, option: required('the option to select') }),
    step('waitFor', { selector: selector.optional(), text: z.string().min(1).optional() }).refine(
      (s) => (s.selector === undefined) !== (s.text === undefined),
      { message: 'waitFor takes either a selector or a text, not both and not neither' },
    ),
    step('assertText', {
      selector: selector.optional(),
      contains: required('the expected text').min(1, 'must not be empty'),
    }),
    step('assertVisible', { selector }),
    /** The page's address contains this (a path, a query, a whole URL). */
    step('assertUrl', { contains: required('the expected address').min(1, 'must not be empty') }),
  ],
  {
    error: (issue) => (issue.code === 'invalid_union' ? `action must be one of ${STEP_ACTIONS}` : undefined),
  },
);
export type StepConfig = z.infer<typeof StepSchema>;

const BROWSER_TYPES: ReadonlyArray<string> = ['browser', 'multistep'];

const CheckObjectSchema = z
  .strictObject({
    id,
    name: z.string().min(1).max(200),
    type: z.enum(CHECK_TYPES),
    /**
     * api/url/browser/multistep: an http(s) URL; tcp: host:port;
     * heartbeat: unused (pinged at /v1/heartbeats/{token}).
     */
    target: z.string().default(''),
    method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD']).default('GET'),
    headers: HeaderRecordSchema.default({}),
    body: z.string().nullable().default(null),
    /** tcp: optional data to send after connecting, and a string expected back. */
    send: z.string().optional(),
    expect: z.string().optional(),
    /** heartbeat: the secret token of its ping URL, the expected period and grace. */
    token: z
      .string()
      .min(8)
      .max(
        MAX_PATH_PARAM_LENGTH,
        `must be at most ${MAX_PATH_PARAM_LENGTH} characters (it is part of a URL path)`,
      )
      .optional(),
    grace: FrequencySchema.optional(),
    frequency: CheckFrequencySchema.default('1m'),
    ...HEARTBEAT_KEYS,
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
    ...PROBE_KEYS,
    ...RUNBOOK_KEYS,
    ...DEPENDENCY_KEYS,
    /** multistep: the journey, after the page at `target` has loaded. */
    steps: z.array(StepSchema).optional(),
    /** browser/multistep: a screenshot of the page is kept for failed runs, or for every run. */
    screenshot: z.enum(['failures', 'always']).default('failures'),
    enabled: z.boolean().default(true),
    alerts: AlertSettingsSchema.prefault({}),
  })
  .superRefine((check, ctx) => {
    refineHeartbeat(check, ctx);
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    const period = runPeriodProblem(check.type, check.frequency);
    if (period) issue('frequency', period);
    // Failing is judged first (docs/status-rules.md): above it, degradedMs could never apply.
    if (check.degradedMs !== undefined && check.failingMs !== undefined && check.degradedMs > check.failingMs)
      issue('degradedMs', `must not be above failingMs (${check.failingMs})`);
    if (check.steps !== undefined && check.type !== 'multistep')
      issue('steps', `steps belong to multistep checks, not ${check.type} checks`);
    if (check.type === 'multistep' && (check.steps ?? []).length === 0)
      issue(
        'steps',
        `a multistep check needs at least one step (${STEP_ACTIONS}); a single page load is a browser check`,
      );
    if (!BROWSER_TYPES.includes(check.type)) {
      if (check.screenshot === 'always')
        issue('screenshot', `only browser and multistep checks take screenshots`);
      return;
    }
    if (!/^https?:\/\//.test(check.target)) issue('target', 'must be an http:// or https:// URL');
    if (check.method !== 'GET') issue('method', `a ${check.type} check loads its page with GET`);
  });
/** A heartbeat's defaults and its schedule-or-frequency rule need the keys as written (heartbeat-keys.ts). */
export const CheckConfigSchema = z.preprocess(heartbeatInput, CheckObjectSchema);
export type CheckConfig = z.infer<typeof CheckConfigSchema>;

export const DashboardConfigSchema = z.strictObject({
  id,
  name: z.string().min(1),
  description: z.string().default(''),
  isPrivate: z.boolean().default(true),
  customDomain: z.string().nullable().default(null),
  customUrl: z
    .string()
    .regex(/^[a-z0-9-]+$/, 'must be a lower-case slug')
    .max(
      MAX_PATH_PARAM_LENGTH,
      `must be at most ${MAX_PATH_PARAM_LENGTH} characters (it is part of a URL path)`,
    ),
  tags: z.array(z.string()).default([]),
  checkIds: z.array(id).default([]),
  checkGroupIds: z.array(id).default([]),
  configuration: z
    .strictObject({
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
      z.strictObject({
        type: z.union([z.enum(WIDGET_TYPES), z.string()]),
        position: z.number().int(),
        title: z.string(),
        settings: z.record(z.string(), z.unknown()).default({}),
      }),
    )
    .default([]),
});
export type DashboardConfig = z.infer<typeof DashboardConfigSchema>;

/**
 * What a channel in the file has beyond the wire's: the checks and groups it
 * serves and, for a WEBHOOK, the signing secret its receiver verifies
 * (generated when absent, as over the API).
 */
const channelExtras = {
  subscriptions: SubscriptionsSchema.optional(),
  /** docs/alerts.md, "Grouping per channel"; absent: 30 s, 0 for a WEBHOOK. */
  groupWindowSeconds: z.number().int().min(0).max(3600).optional(),
  signingSecret: z.string().min(16, 'must be at least 16 characters').optional(),
};

const { EMAIL, CHAT, WEBHOOK, SMS, PHONE } = ALERT_CHANNEL_VARIANTS;
/**
 * A channel the service creates the first time the account starts empty: the
 * wire's variants (the POST body of 4.5) with the extras above, strict: the
 * wire's own schema tolerates extra keys, a config file must not. A WEBHOOK's
 * query parameters refuse line breaks as its headers do.
 */
export const ChannelConfigSchema = z
  .discriminatedUnion(
    'type',
    [
      EMAIL.extend({ ...channelExtras, config: EMAIL.shape.config.strict() }).strict(),
      CHAT.extend({ ...channelExtras, config: CHAT.shape.config.strict() }).strict(),
      WEBHOOK.extend({
        ...channelExtras,
        config: WEBHOOK.shape.config.extend(CONFIG_WEBHOOK_KEY_VALUES).strict(),
      }).strict(),
      SMS.extend({ ...channelExtras, config: SMS.shape.config.strict() }).strict(),
      PHONE.extend({ ...channelExtras, config: PHONE.shape.config.strict() }).strict(),
    ],
    { error: CHANNEL_TYPE_ERROR },
  )
  .superRefine(refineChannel);
export type ChannelConfig = z.infer<typeof ChannelConfigSchema>;

const apiKeySecret = z.string().min(16, 'must be at least 16 characters');

/**
 * An API key with its name and role (docs/roles.md): the key itself, or only its
 * SHA-256 (`keySha256`, 64 hex digits) so the file holds no secret. Parsed, it keeps
 * the form it was written in (a parsed config parses again to itself).
 */
export const ApiKeyObjectSchema = z
  .strictObject({
    key: apiKeySecret.optional(),
    keySha256: z
      .string()
      .regex(/^[0-9a-fA-F]{64}$/, 'must be the SHA-256 of the key: 64 hex digits')
      .transform((s) => s.toLowerCase())
      .optional(),
    name: id,
    role: RoleSchema,
  })
  .refine((k) => (k.key === undefined) !== (k.keySha256 === undefined), {
    message: 'give exactly one of key and keySha256',
  });
export type ApiKeyConfig = z.infer<typeof ApiKeyObjectSchema>;

/**
 * A plain string is an `admin` key named `key-` and the first 8 hex digits of its
 * SHA-256: a name that tells keys apart in the audit trail and never shows the key.
 */
export const ApiKeySchema = z.preprocess(
  (value) => (typeof value === 'string' ? { key: value, name: plainKeyName(value), role: 'admin' } : value),
  ApiKeyObjectSchema,
);

export function plainKeyName(key: string): string {
  return `key-${digestOf(key).toString('hex').slice(0, 8)}`;
}

/** The SHA-256 of a configured key, whichever form it was written in. */
export const apiKeyDigest = (k: ApiKeyConfig): Buffer =>
  k.key !== undefined ? digestOf(k.key) : Buffer.from(k.keySha256!, 'hex');

/** A window in the config: the API's create body with an id of its own (docs/maintenance.md). */
// allowEmpty is the API's: a config window covering no check is warned about at load, never refused.
export const MaintenanceConfigSchema = MaintenanceCreateSchema.omit({ allowEmpty: true }).extend({
  id: PathParamSchema,
});

export const AccountConfigSchema = z
  .strictObject({
    id: z.uuid(),
    name: z.string().default('account'),
    apiKeys: z.array(ApiKeySchema).min(1),
    maxAlertChannels: z.number().int().min(0).default(10),
    /** Active or scheduled maintenance windows, the config's included (docs/maintenance.md). */
    maxMaintenanceWindows: z.number().int().min(1).max(100_000).default(500),
    /** Everything below belongs to this account. */
    locations: z.array(LocationConfigSchema).default([]),
    groups: z.array(GroupConfigSchema).default([]),
    checks: z.array(CheckConfigSchema).default([]),
    dashboards: z.array(DashboardConfigSchema).default([]),
    alertChannels: z.array(ChannelConfigSchema).default([]),
    /** Maintenance windows declared here (docs/maintenance.md), read-only over the API. */
    maintenanceWindows: z.array(MaintenanceConfigSchema).default([]),
    ...OUTAGE_KEYS,
  })
  .superRefine((account, ctx) => {
    // A key's name is who acted in the audit trail: two keys of one name could not be told apart.
    const names = new Map<string, number>();
    account.apiKeys.forEach((key, i) => {
      const before = names.get(key.name);
      if (before !== undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['apiKeys', i, 'name'],
          message: `"${key.name}" is the name of apiKeys.${before} too: name each key of an account once`,
        });
      else names.set(key.name, i);
    });
    // A misspelt id would leave a channel that never pages: say so at start.
    account.alertChannels.forEach((channel, i) => {
      for (const { key, index, message } of unknownSubscriptions(account, channel.subscriptions ?? {}))
        ctx.addIssue({ code: 'custom', path: ['alertChannels', i, 'subscriptions', key, index], message });
    });
    refineDependencies(account, ctx);
    const checks = new Set(account.checks.map((c) => c.id));
    const groups = new Set(account.groups.map((g) => g.id));
    const windowIds = new Set<string>();
    account.maintenanceWindows.forEach((w, i) => {
      const at = (path: PropertyKey[], message: string) =>
        ctx.addIssue({ code: 'custom', path: ['maintenanceWindows', i, ...path], message });
      if (windowIds.has(w.id)) at(['id'], `"${w.id}" names another window of this account too`);
      windowIds.add(w.id);
      (w.scope.checks ?? []).forEach((id, j) => {
        if (!checks.has(id)) at(['scope', 'checks', j], `no check "${id}" in this account`);
      });
      (w.scope.groups ?? []).forEach((id, j) => {
        if (!groups.has(id)) at(['scope', 'groups', j], `no group "${id}" in this account`);
      });
      if (w.repeat && !isTimeZone(w.repeat.timezone))
        at(
          ['repeat', 'timezone'],
          `unknown time zone "${w.repeat.timezone}": give an IANA name like Europe/Berlin`,
        );
      if ((w.endsAt === undefined) === (w.duration === undefined))
        at(['endsAt'], 'give exactly one of endsAt and duration: a window must end');
    });
  });
export type AccountConfig = z.infer<typeof AccountConfigSchema>;

/**
 * The HTTP side (docs/security.md): who may reach the service and what strangers may cost it.
 * trustProxy is read at start; the rest applies at a reload.
 */
export const HttpConfigSchema = z.strictObject({
  /**
   * Behind a reverse proxy: the client's address is the one X-Forwarded-For names
   * (fastify's trustProxy), for the per-address limits and the logs. Off, a client
   * could name any address it likes there.
   */
  trustProxy: z.boolean().default(false),
  /**
   * The Host values the service answers (`name` any port, `name:port` that port);
   * others get 421. Absent, any Host: as on a workstation's loopback, where a DNS
   * rebinding page could then reach it. Dashboards' customDomain values are allowed too.
   */
  allowedHosts: z.array(AllowedHostSchema).min(1).optional(),
  /** Per client address; requests with valid credentials are limited per key instead. */
  rateLimit: z
    .strictObject({
      /** Failed authentications (account and runner endpoints) and pings of unknown heartbeat tokens. */
      failedAuthPerMinute: z.number().int().min(1).max(1_000_000).default(60),
      publicReadsPerSecond: z.number().int().min(1).max(1_000_000).default(20),
      /**
       * A request past its address's budget is answered 429 after this many seconds (at
       * most its Retry-After), not at once: a flooding client waits instead of asking
       * again. 0 answers at once.
       */
      holdRefusedSeconds: z.number().int().min(0).max(60).default(10),
    })
    .prefault({}),
});
export type HttpConfig = z.infer<typeof HttpConfigSchema>;

export const ServiceConfigSchema = z
  .strictObject({
    accounts: z.array(AccountConfigSchema).default([]),
    retentionDays: z.number().int().min(1).max(3650).default(30),
    /**
     * Days the hourly/daily roll-ups of results and closed incidents are kept (docs/status-page.md):
     * the history of the 30- and 90-day figures, beyond the raw results' retentionDays.
     */
    historyDays: z.number().int().min(1).max(3650).default(400),
    /** Runs executing at once, across all checks and locations. */
    maxConcurrentRuns: z.number().int().min(1).max(1000).default(16),
    /** Browser pages open at once (each run is a page of the service's one Chromium). */
    maxConcurrentBrowserRuns: z.number().int().min(1).max(16).default(2),
    /** Response bodies are stored up to this many bytes (the real size is kept too). */
    maxStoredBodyBytes: z.number().int().min(0).default(65_536),
    /** Where this service is reached from outside: alert messages link to results there. */
    publicUrl: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// address' }).optional(),
    /** The mail server of EMAIL channels: smtp://[user:pass@]host:port (smtps:// for TLS). */
    smtp: z
      .strictObject({
        url: z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// address' }),
        from: z.string().min(3),
      })
      .optional(),
    /** The SMS and voice provider of SMS and PHONE channels, in the Twilio REST shape. */
    sms: z
      .strictObject({
        baseUrl: z
          .url({ protocol: /^https?$/, error: 'must be an http:// or https:// address' })
          .default('https://api.twilio.com'),
        accountSid: z.string().min(1),
        authToken: z.string().min(1),
        from: z.string().min(1),
      })
      .optional(),
    /** How deliveries retry; the defaults are about 30 minutes over 6 attempts. */
    alertDelivery: z
      .strictObject({
        attemptTimeoutSeconds: z.number().min(0.1).max(60).default(10),
        maxAttempts: z.number().int().min(1).max(20).default(6),
        retryBaseSeconds: z.number().min(0.01).max(3600).default(60),
        retryMaxSeconds: z.number().min(0.01).max(86_400).default(960),
        /** WEBHOOK and CHAT deliveries may reach loopback, link-local and private addresses (security.md). */
        allowPrivateNetworks: z.boolean().default(false),
        /** Ranges (CIDR) WEBHOOK and CHAT deliveries may reach although not public, e.g. 10.1.0.0/16. */
        allowedNetworks: z
          .array(
            z
              .string()
              .refine((v) => ipaddr.isValidCIDR(v), 'must be a CIDR range, e.g. 10.1.0.0/16 or fd00::/8'),
          )
          .default([]),
      })
      .prefault({}),
    http: HttpConfigSchema.prefault({}),
    /**
     * A second listener serving GET /metrics of every account with no key, for a Prometheus
     * beside the service (docs/metrics.md); read at start. Keep it on loopback.
     */
    metrics: z
      .strictObject({
        port: z.number().int().min(0).max(65_535),
        host: z.string().trim().min(1).default('127.0.0.1'),
      })
      .optional(),
  })
  .superRefine((config, ctx) => {
    // History is made from the results: it cannot be kept for less time than they are.
    if (config.historyDays < config.retentionDays)
      ctx.addIssue({
        code: 'custom',
        path: ['historyDays'],
        message: `must be at least retentionDays (${config.retentionDays}): history is kept at least as long as the results`,
      });
  });
export type ServiceConfig = z.infer<typeof ServiceConfigSchema>;
