// The dialects (docs/alerts.md): the chat services by CHAT config.service ("Chat
// services"), and the WEBHOOK formats by config.format ("Webhook formats").
import type { ChatService, WebhookFormat } from '../../../api/schemas/index.js';
import { alertmanagerDialect } from './alertmanager.js';
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

/** `checkwall` is not here: the sender's own signed body (senders/webhook.ts). */
export const DIALECTS: Record<Exclude<WebhookFormat, 'checkwall'>, Dialect> = {
  pagerduty: pagerdutyDialect,
  opsgenie: opsgenieDialect,
  alertmanager: alertmanagerDialect,
  template: templateDialect,
};

export type { ChatConfig, ChatDialect, ChatRequest } from './types.js';
