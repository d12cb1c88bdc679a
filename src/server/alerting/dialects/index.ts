// The dialects (docs/alerts.md): the chat services by CHAT config.service ("Chat
// services"), and the WEBHOOK formats by config.format ("Webhook formats").
import type { ChatService, WebhookFormat } from '../../../api/schemas/index.js';
import { alertmanagerDialect } from './alertmanager.js';
import { withCleanText } from './clean.js';
import { discord } from './discord.js';
import { googlechat } from './googlechat.js';
import { mattermost } from './mattermost.js';
import { msteams } from './msteams.js';
import { ntfy } from './ntfy.js';
import { opsgenieDialect } from './opsgenie.js';
import { pagerdutyDialect } from './pagerduty.js';
import { slack } from './slack.js';
import { telegram } from './telegram.js';
import { templateDialect } from './template.js';
import type { ChatDialect, Dialect } from './types.js';

export const CHAT_DIALECTS: Record<ChatService, ChatDialect> = {
  slack,
  mattermost,
  msteams,
  discord,
  googlechat,
  telegram,
  ntfy,
};

/**
 * `checkwall` is not here: the sender's own signed body (senders/webhook.ts), the
 * payload verbatim for programs. A template is the user's own body, escaped for its
 * content type (webhook-template.ts). The pagers are read by people: their text is cleaned.
 */
export const DIALECTS: Record<Exclude<WebhookFormat, 'checkwall'>, Dialect> = {
  pagerduty: withCleanText(pagerdutyDialect),
  opsgenie: withCleanText(opsgenieDialect),
  alertmanager: withCleanText(alertmanagerDialect),
  template: templateDialect,
};

export type { ChatConfig, ChatDialect, ChatRequest } from './types.js';
