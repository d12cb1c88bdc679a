// 2.4 of the spec: alert channels, the POST body of 4.5 as one variant per type
// (the service's config reuses them), a stored channel and its list; what a
// channel serves (DECISION); the list's query.
import { z } from 'zod';
import { listOf, PageMetaSchema, pageQuery, PathParamSchema, TimestampSchema } from './common.js';
import { AlertEventSchema, NotificationStatusSchema } from './enums.js';

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
// What undici sends, and nothing else: a name that is not an RFC 9110 token, or a value with
// another control character or one beyond Latin-1, was taken and then failed every delivery
// ("could not connect (UND_ERR_INVALID_ARG)").
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const HEADER_VALUE_CHARS = /^[\t\r\n\x20-\x7e\x80-\xff]*$/;
/** A key and value with no line break: the service's config takes a WEBHOOK's query parameters so. */
const UnbrokenKeyValueSchema = z.object({
  key: noLineBreak(z.string().trim().min(1, 'must not be empty').max(256)),
  value: noLineBreak(z.string().max(4096)),
});
const HeaderSchema = z.object({
  key: UnbrokenKeyValueSchema.shape.key.refine(
    (k) => /[\r\n]/.test(k) || HEADER_NAME.test(k),
    "must be an HTTP header name: letters, digits and !#$%&'*+-.^_`|~, no spaces or colons",
  ),
  value: UnbrokenKeyValueSchema.shape.value.refine(
    (v) => HEADER_VALUE_CHARS.test(v),
    'must hold only tabs, printable ASCII and Latin-1 characters (no emoji, no control characters)',
  ),
});
/** Headers as name to value (a check's request in the service's config), by the same rule. */
export const HeaderRecordSchema = z.record(HeaderSchema.shape.key, HeaderSchema.shape.value);
/** A WEBHOOK's headers and query parameters as the service's config takes them: strict. */
export const CONFIG_WEBHOOK_KEY_VALUES = {
  headers: z.array(z.strictObject(HeaderSchema.shape)).max(50).optional(),
  queryParameters: z.array(z.strictObject(UnbrokenKeyValueSchema.shape)).max(50).optional(),
};

export const EmailConfigSchema = z.object({
  address: z.email({ error: 'must be a valid e-mail address' }).max(320),
});
/**
 * DECISION (docs/alerts.md "Chat services"): the service a CHAT channel speaks; without
 * one, the channel posts today's `{ text, channel }` body.
 */
export const CHAT_SERVICES = [
  'slack',
  'mattermost',
  'msteams',
  'discord',
  'googlechat',
  'telegram',
  'ntfy',
] as const;
export type ChatService = (typeof CHAT_SERVICES)[number];
/** Telegram's default API address, which the console fills in for a telegram channel's `url`. */
export const TELEGRAM_API_URL = 'https://api.telegram.org';

export const ChatConfigSchema = z
  .object({
    url: httpUrl,
    channel: z
      .string()
      .regex(/^#\S+$/, 'must start with # and have no spaces, e.g. #ops')
      .max(80)
      .optional(),
    service: z.enum(CHAT_SERVICES, { error: `must be one of ${CHAT_SERVICES.join(', ')}` }).optional(),
    /** telegram only: the bot's token from BotFather; kept out of `url`, masked like other secrets. */
    botToken: z
      .string()
      .regex(
        /^\d{1,20}:[A-Za-z0-9_-]{20,100}$/,
        'must be a bot token as BotFather gives it, e.g. 123456:ABC-DEF…',
      )
      .optional(),
    /** telegram only: a chat's numeric id (negative for groups) or a public channel's @name. */
    chatId: z
      .string()
      .regex(/^(-?\d{1,20}|@[A-Za-z][A-Za-z0-9_]{3,31})$/, 'must be a numeric chat id or a channel @name')
      .optional(),
  })
  .superRefine((c, ctx) => {
    const telegram = c.service === 'telegram';
    for (const key of ['botToken', 'chatId'] as const) {
      if (telegram && !c[key])
        ctx.addIssue({ code: 'custom', path: [key], message: 'required for telegram' });
      if (!telegram && c[key] !== undefined)
        ctx.addIssue({ code: 'custom', path: [key], message: 'only a telegram channel takes it' });
    }
    if (telegram && /\/bot\d/i.test(c.url))
      ctx.addIssue({
        code: 'custom',
        path: ['url'],
        message: `must be the API address (${TELEGRAM_API_URL}), without the bot token: put the token in botToken`,
      });
  });
/** DECISION (docs/alerts.md, "Webhook formats"): the body a WEBHOOK sends; `checkwall` when absent. */
export const WEBHOOK_FORMATS = ['checkwall', 'pagerduty', 'opsgenie', 'alertmanager', 'template'] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];
export const TEMPLATE_MAX_BYTES = 16 * 1024;
const providerKey = noLineBreak(z.string().trim().min(1, 'must not be empty').max(256));

export const WebhookConfigSchema = z.object({
  url: httpUrl,
  method: z.enum(WEBHOOK_METHODS, { error: `must be one of ${WEBHOOK_METHODS.join(', ')}` }),
  headers: z.array(HeaderSchema).max(50).optional(),
  queryParameters: z.array(KeyValueSchema).max(50).optional(),
  format: z.enum(WEBHOOK_FORMATS, { error: `must be one of ${WEBHOOK_FORMATS.join(', ')}` }).optional(),
  /** pagerduty: the integration's routing key (Events API v2). A secret: masked like headers. */
  routingKey: providerKey.optional(),
  /** opsgenie: the API integration's key, sent as `Authorization: GenieKey …`. A secret. */
  apiKey: providerKey.optional(),
  /** alertmanager: how often an open alert is posted again; endsAt is 3 times this ahead. */
  repostSeconds: z.number().int().min(5, 'must be at least 5').max(3600).optional(),
  /** template: the mustache body (docs/alerts.md, "Template variables"). */
  template: z
    .string()
    .min(1, 'must not be empty')
    .refine((t) => Buffer.byteLength(t) <= TEMPLATE_MAX_BYTES, 'must be at most 16 KB')
    .optional(),
  /** template: the body's Content-Type (application/json by default); it decides the escaping. */
  contentType: noLineBreak(z.string().trim().min(1, 'must not be empty').max(256)).optional(),
});
type WebhookConfigInput = z.infer<typeof WebhookConfigSchema>;

const FORMAT_KEYS = {
  routingKey: 'pagerduty',
  apiKey: 'opsgenie',
  repostSeconds: 'alertmanager',
  template: 'template',
  contentType: 'template',
} as const satisfies Partial<Record<keyof WebhookConfigInput, WebhookFormat>>;
const POST_ONLY: ReadonlySet<string> = new Set(['pagerduty', 'opsgenie', 'alertmanager']);
const REQUIRED: Partial<Record<WebhookFormat, keyof typeof FORMAT_KEYS>> = {
  pagerduty: 'routingKey',
  opsgenie: 'apiKey',
  template: 'template',
};

/** DECISION: what a WEBHOOK's format asks of its other keys, as [key, message] pairs. */
export function webhookFormatIssues(config: WebhookConfigInput): Array<[string, string]> {
  const format = config.format ?? 'checkwall';
  const out: Array<[string, string]> = [];
  if (POST_ONLY.has(format) && config.method !== 'POST')
    out.push(['method', `must be POST for format ${format}`]);
  const needed = REQUIRED[format];
  if (needed && config[needed] === undefined) out.push([needed, `is required for format ${format}`]);
  for (const [key, owner] of Object.entries(FORMAT_KEYS))
    if (owner !== format && config[key as keyof typeof FORMAT_KEYS] !== undefined)
      out.push([key, `belongs to format ${owner}, not ${format}`]);
  return out;
}

/** Adds the format's issues under `config` to a channel body's parse. */
export function refineWebhookFormat(channel: { type: string; config: unknown }, ctx: z.RefinementCtx): void {
  if (channel.type !== 'WEBHOOK') return;
  for (const [key, message] of webhookFormatIssues(channel.config as WebhookConfigInput))
    ctx.addIssue({ code: 'custom', path: ['config', key], message });
}
export const PhoneConfigSchema = z.object({
  number: e164,
  name: z.string().trim().min(1, 'must not be empty').max(200),
});

const channelName = z.string().trim().min(1, 'must not be empty').max(200);

/**
 * The POST body of 4.5, one variant per type; the service's config makes each
 * strict and adds its own fields (src/server/config/schema.ts).
 */
export const ALERT_CHANNEL_VARIANTS = {
  EMAIL: z.object({ type: z.literal('EMAIL'), name: channelName, config: EmailConfigSchema }),
  CHAT: z.object({ type: z.literal('CHAT'), name: channelName, config: ChatConfigSchema }),
  WEBHOOK: z.object({ type: z.literal('WEBHOOK'), name: channelName, config: WebhookConfigSchema }),
  SMS: z.object({ type: z.literal('SMS'), name: channelName, config: PhoneConfigSchema }),
  PHONE: z.object({ type: z.literal('PHONE'), name: channelName, config: PhoneConfigSchema }),
} satisfies Record<ChannelType, z.ZodObject>;
export const CHANNEL_TYPE_ERROR = `type must be one of ${CHANNEL_TYPES.join(', ')}`;

const { EMAIL, CHAT, WEBHOOK, SMS, PHONE } = ALERT_CHANNEL_VARIANTS;
/** The POST body of 4.5, a discriminated union on `type`. */
export const AlertChannelCreateSchema = z
  .discriminatedUnion('type', [EMAIL, CHAT, WEBHOOK, SMS, PHONE], { error: CHANNEL_TYPE_ERROR })
  .superRefine(refineWebhookFormat);
export type AlertChannelCreate = z.infer<typeof AlertChannelCreateSchema>;
export type AlertChannelConfig = AlertChannelCreate['config'];

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
  /** DECISION: the checks, groups and locations it serves (absent from services that do not say). */
  subscriptions: z
    .looseObject({
      checks: z.array(z.string()),
      groups: z.array(z.string()),
      /** Absent from services before location outages (docs/alerts.md, "A broken location"). */
      locations: z.array(z.string()).optional(),
    })
    .optional(),
  /**
   * DECISION: a WEBHOOK channel's HMAC key for X-Checkwall-Signature: whole in the
   * POST answer only, masked (`whsec_•••` and its last 4) in every later answer.
   */
  signingSecret: z.string().optional(),
  /** DECISION (docs/alerts.md, "Grouping per channel"): the window it was given; absent, its type's default. */
  groupWindowSeconds: z.number().int().optional(),
  /** DECISION: in the list, the newest delivery and the failed ones of the last 24 h. */
  lastDelivery: LastDeliverySchema.nullable().optional(),
  failures24h: z.number().int().optional(),
});
export type AlertChannel = z.infer<typeof AlertChannelSchema>;

export const AlertChannelListSchema = listOf(AlertChannelSchema, PageMetaSchema);
export type AlertChannelList = z.infer<typeof AlertChannelListSchema>;

/** DECISION: what a channel serves; a group covers its checks, also ones added later. */
export const SubscriptionsSchema = z.strictObject({
  checks: z.array(PathParamSchema).max(1000).default([]),
  groups: z.array(PathParamSchema).max(1000).default([]),
  /** DECISION (docs/alerts.md, "A broken location"): locations whose outages this channel hears. */
  locations: z.array(PathParamSchema).max(100).default([]),
});
export type Subscriptions = z.output<typeof SubscriptionsSchema>;

/**
 * DECISION (docs/alerts.md, "Grouping per channel"): `GET`/`PUT /v1/alert-channels/{id}/grouping`.
 * The body sets the window (0..3600 s, 0: one by one) or gives it back to the type's default (null).
 */
export const ChannelGroupingBodySchema = z.strictObject({
  groupWindowSeconds: z.number().int().min(0).max(3600).nullable(),
});
export type ChannelGroupingBody = z.infer<typeof ChannelGroupingBodySchema>;

/** The answer: what was set (null: none) and the window that applies. */
export const ChannelGroupingSchema = z.object({
  groupWindowSeconds: z.number().int().nullable(),
  effectiveSeconds: z.number().int(),
});
export type ChannelGrouping = z.infer<typeof ChannelGroupingSchema>;

/** DECISION: the POST body of 4.5 may carry `subscriptions` and `groupWindowSeconds`. */
const bodyExtras = {
  subscriptions: SubscriptionsSchema.optional(),
  /** DECISION (docs/alerts.md, "Grouping per channel"): absent, 30 s; 0 for a WEBHOOK. */
  groupWindowSeconds: z.number().int().min(0).max(3600).optional(),
};
/**
 * DECISION: the POST body is strict, as every other body we take: a key it does not
 * know (`routingkey`, `header`) is a 400 naming it, never a channel created without it.
 */
export const AlertChannelCreateBodySchema = z
  .discriminatedUnion(
    'type',
    [
      EMAIL.extend({ ...bodyExtras, config: EMAIL.shape.config.strict() }).strict(),
      CHAT.extend({ ...bodyExtras, config: CHAT.shape.config.strict() }).strict(),
      WEBHOOK.extend({ ...bodyExtras, config: WEBHOOK.shape.config.strict() }).strict(),
      SMS.extend({ ...bodyExtras, config: SMS.shape.config.strict() }).strict(),
      PHONE.extend({ ...bodyExtras, config: PHONE.shape.config.strict() }).strict(),
    ],
    { error: CHANNEL_TYPE_ERROR },
  )
  .superRefine(refineWebhookFormat);
export type AlertChannelCreateBody = z.input<typeof AlertChannelCreateBodySchema>;

/** DECISION: the alert channel list pages like the others, oldest first. */
export const AlertChannelsQuerySchema = z.strictObject({ ...pageQuery() });
export type AlertChannelsQuery = z.input<typeof AlertChannelsQuerySchema>;
