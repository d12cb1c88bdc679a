// Opsgenie's Alert API (https://docs.opsgenie.com/docs/alert-api), also Jira Service
// Management's, which takes the same body: `url` is the API's base (US
// https://api.opsgenie.com, EU https://api.eu.opsgenie.com). One Opsgenie alert per
// Checkwall alert, `alias` = the alert's id (a location outage's: its outage id; a check's
// degraded or certificate warning's: one per check, dialects/severity.ts); created,
// acknowledged and closed by alias.
import type { AlertPayload } from '../../../api/schemas/index.js';
import { subject, textBody } from '../message.js';
import { alertKeyOf, closes, severityOf, whereOf } from './severity.js';
import { cutEscaped } from './facts.js';
import { jsonRequest, under, type Dialect } from './types.js';

/** Opsgenie's field limits (https://docs.opsgenie.com/docs/alerts-and-alert-fields). */
export const OPSGENIE_LIMITS = { message: 130, alias: 512, description: 15_000, entity: 512 } as const;

const PRIORITY = { critical: 'P1', warning: 'P3', info: 'P5' } as const;

function description(p: AlertPayload): string {
  const links = [
    ...(p.runbook ? [`Runbook: ${p.runbook}`] : []),
    ...p.links.map((l) => `${l.name}: ${l.url}`),
  ];
  return cutEscaped(
    [textBody(p), ...(links.length ? ['', ...links] : [])].join('\n'),
    OPSGENIE_LIMITS.description,
  );
}

export const opsgenieDialect: Dialect = (delivery, config) => {
  const p = delivery.payload;
  const alias = cutEscaped(alertKeyOf(delivery), OPSGENIE_LIMITS.alias);
  const auth = { authorization: `GenieKey ${config.apiKey ?? ''}` };
  const byAlias = (action: string) =>
    under(config.url, `/v2/alerts/${encodeURIComponent(alias)}/${action}?identifierType=alias`);
  if (closes(p))
    return jsonRequest('POST', byAlias('close'), { source: 'Checkwall', note: subject(p) }, auth);
  if (p.event === 'acknowledgement') {
    const by = p.acknowledgedBy ? { user: cutEscaped(p.acknowledgedBy, 100) } : {};
    return jsonRequest(
      'POST',
      byAlias('acknowledge'),
      { source: 'Checkwall', ...by, note: subject(p) },
      auth,
    );
  }
  const details: Record<string, string> = { event: p.event };
  if (p.check) details['checkId'] = p.check.id;
  if (p.location) details['locationId'] = p.location.id;
  if (p.link) details['link'] = p.link;
  if (p.runbook) details['runbook'] = p.runbook;
  return jsonRequest(
    'POST',
    under(config.url, '/v2/alerts'),
    {
      message: cutEscaped(subject(p), OPSGENIE_LIMITS.message),
      alias,
      description: description(p),
      priority: PRIORITY[severityOf(p)],
      source: 'Checkwall',
      ...(whereOf(p) ? { entity: cutEscaped(whereOf(p), OPSGENIE_LIMITS.entity) } : {}),
      tags: ['checkwall', p.event],
      details,
    },
    auth,
  );
};
