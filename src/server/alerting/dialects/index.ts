// The WEBHOOK formats (docs/alerts.md, "Webhook formats"), by config.format.
import type { WebhookFormat } from '../../../api/schemas/index.js';
import { alertmanagerDialect } from './alertmanager.js';
import { opsgenieDialect } from './opsgenie.js';
import { pagerdutyDialect } from './pagerduty.js';
import { templateDialect } from './template.js';
import type { Dialect } from './types.js';

/** `checkwall` is not here: the sender's own signed body (senders/webhook.ts). */
export const DIALECTS: Record<Exclude<WebhookFormat, 'checkwall'>, Dialect> = {
  pagerduty: pagerdutyDialect,
  opsgenie: opsgenieDialect,
  alertmanager: alertmanagerDialect,
  template: templateDialect,
};
