// The create form's fields by dialect (docs/console.md, "Creating a channel"): a
// CHAT channel's service and a WEBHOOK channel's format are choosers, and each
// dialect asks only for what it needs (a routing key for PagerDuty, a bot token and
// chat id for Telegram, a template and its content type for a template); an
// endpoint the provider publishes is filled in, and stays editable.
import { CHAT_SERVICES, TELEGRAM_API_URL, WEBHOOK_METHODS, type ChannelType } from '../api/schemas/index.js';
import { defaultGroupWindowSeconds } from '../domain/group-window.js';

export interface FieldSpec {
  path: string;
  label: string;
  optional?: boolean;
  hint?: string;
  /** A chooser: the value is one of these (left/right or space moves), never typed. */
  choices?: readonly string[];
  /** What a choice reads as, where it is not its own value. */
  choiceLabels?: Readonly<Record<string, string>>;
}

/** The WEBHOOK formats the service speaks; `checkwall` (the signed JSON body) is the default. */
export const FORM_WEBHOOK_FORMATS = [
  'checkwall',
  'pagerduty',
  'opsgenie',
  'alertmanager',
  'template',
] as const;
/** '' is a CHAT channel without a service: today's `{ text, channel }` body. */
export const FORM_CHAT_SERVICES = ['', ...CHAT_SERVICES] as const;
export const TEMPLATE_CONTENT_TYPES = ['application/json', 'application/x-www-form-urlencoded', 'text/plain'];

const NAME: FieldSpec = { path: 'name', label: 'Channel name' };
const PHONE: FieldSpec[] = [
  NAME,
  { path: 'config.number', label: 'Number', hint: '+14155550123' },
  { path: 'config.name', label: 'Alert name' },
];
const SERVICE: FieldSpec = {
  path: 'config.service',
  label: 'Service',
  optional: true,
  choices: FORM_CHAT_SERVICES,
  choiceLabels: { '': 'plain (text and channel)' },
};
const FORMAT: FieldSpec = { path: 'config.format', label: 'Format', choices: FORM_WEBHOOK_FORMATS };
const METHOD: FieldSpec = { path: 'config.method', label: 'Method', choices: WEBHOOK_METHODS };
const url = (label: string, hint = 'https://…'): FieldSpec => ({ path: 'config.url', label, hint });

function chatFields(service: string): FieldSpec[] {
  switch (service) {
    case 'telegram':
      return [
        { path: 'config.botToken', label: 'Bot token', hint: '123456:ABC-DEF… from @BotFather' },
        { path: 'config.chatId', label: 'Chat id', hint: '-1001234567890 or @channel' },
      ];
    case 'ntfy':
      return [url('Topic URL', 'https://ntfy.sh/your-topic')];
    case 'msteams':
      return [url('Workflows URL', 'https://…powerautomate… (Workflows: "Send webhook alerts")')];
    case 'discord':
    case 'googlechat':
      return [url('Webhook URL')];
    default:
      return [url('Webhook URL'), { path: 'config.channel', label: 'Channel', optional: true, hint: '#ops' }];
  }
}

function webhookFields(format: string): FieldSpec[] {
  switch (format) {
    case 'pagerduty':
      return [
        url('Events API URL'),
        { path: 'config.routingKey', label: 'Routing key', hint: '32 characters' },
      ];
    case 'opsgenie':
      return [
        url('API URL', 'US, EU or Jira Service Management'),
        { path: 'config.apiKey', label: 'API key' },
      ];
    case 'alertmanager':
      return [url('Alertmanager URL', 'http://alertmanager:9093 (its base address)')];
    case 'template':
      return [
        url('URL'),
        METHOD,
        { path: 'config.contentType', label: 'Content type', choices: TEMPLATE_CONTENT_TYPES },
        { path: 'config.template', label: 'Template', hint: '{"text": "{{check.name}} {{event}}"}' },
      ];
    default:
      return [url('URL'), METHOD];
  }
}

/** Where the form keeps the grouping window: sent as the body's `groupWindowSeconds`, not in `config`. */
export const GROUP_WINDOW_PATH = 'groupWindowSeconds';

/** The grouping window (docs/alerts.md, "Grouping per channel"); blank, the type's default. */
const groupWindow = (type: ChannelType): FieldSpec => ({
  path: GROUP_WINDOW_PATH,
  label: 'Grouping',
  optional: true,
  // Short enough to show whole at 80 columns: the default is what a blank field means.
  hint: `seconds or minutes (90, 2m), at most 60m; blank: ${defaultGroupWindowSeconds(type)}s`,
});

/** The fields of the form as it stands: its type's, its dialect's, then the grouping window. */
export function fieldsOf(type: ChannelType, values: Readonly<Record<string, string>>): FieldSpec[] {
  return [...typeFields(type, values), groupWindow(type)];
}

function typeFields(type: ChannelType, values: Readonly<Record<string, string>>): FieldSpec[] {
  switch (type) {
    case 'EMAIL':
      return [NAME, { path: 'config.address', label: 'Address', hint: 'oncall@example.com' }];
    case 'CHAT':
      return [NAME, SERVICE, ...chatFields(values['config.service'] ?? '')];
    case 'WEBHOOK':
      return [NAME, FORMAT, ...webhookFields(values['config.format'] ?? 'checkwall')];
    case 'SMS':
    case 'PHONE':
      return PHONE;
  }
}

/** Whether the form takes header and query parameter rows (a WEBHOOK that sends our request). */
export function takesRows(type: ChannelType | null, values: Readonly<Record<string, string>>): boolean {
  const format = values['config.format'] ?? 'checkwall';
  return type === 'WEBHOOK' && (format === 'checkwall' || format === 'template');
}

/** Config the dialect fixes rather than asks for (the method of a provider's API, Telegram's address). */
export function fixedConfig(
  type: ChannelType,
  values: Readonly<Record<string, string>>,
): Record<string, string> {
  if (type === 'CHAT' && values['config.service'] === 'telegram') return { url: TELEGRAM_API_URL };
  if (type === 'WEBHOOK' && !takesRows(type, values)) return { method: 'POST' };
  return {};
}

/** The endpoints the providers publish, filled in when a dialect is chosen. */
const DEFAULT_URLS: Record<string, string> = {
  pagerduty: 'https://events.pagerduty.com/v2/enqueue',
  opsgenie: 'https://api.opsgenie.com',
  ntfy: 'https://ntfy.sh/',
};

/** The values when a type is chosen: each chooser at its first choice. */
export function initialValues(type: ChannelType): Record<string, string> {
  if (type === 'WEBHOOK') return { 'config.format': 'checkwall', 'config.method': 'POST' };
  if (type === 'CHAT') return { 'config.service': '' };
  return {};
}

/** The values after a chooser moved: a dialect's published endpoint replaces an empty or default URL. */
export function afterChoice(
  values: Record<string, string>,
  path: string,
  choice: string,
): Record<string, string> {
  const next = { ...values, [path]: choice };
  if (path !== 'config.format' && path !== 'config.service') return next;
  if (path === 'config.format' && choice === 'template') {
    next['config.contentType'] ??= TEMPLATE_CONTENT_TYPES[0]!;
    next['config.method'] ??= 'POST';
  }
  const current = values['config.url'] ?? '';
  const isDefault = current === '' || Object.values(DEFAULT_URLS).includes(current);
  if (isDefault) next['config.url'] = DEFAULT_URLS[choice] ?? '';
  return next;
}

/** What a chooser shows for a value. */
export const choiceLabel = (spec: FieldSpec, value: string): string => spec.choiceLabels?.[value] ?? value;
