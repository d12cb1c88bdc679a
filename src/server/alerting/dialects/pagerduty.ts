// PagerDuty Events API v2 (https://developer.pagerduty.com/docs/events-api-v2/trigger-events/):
// one PagerDuty alert per Checkwall alert, `dedup_key` = the alert's id, so a
// trigger, its acknowledge and its resolve meet. Events without an alert (degraded,
// certificate, test) are triggers of their own, keyed by the delivery id.
import type { AlertPayload } from '../../../api/schemas/index.js';
import { subject } from '../message.js';
import { severityOf, whereOf } from './severity.js';
import { cutEscaped } from './facts.js';
import { jsonRequest, type Dialect } from './types.js';

/** The Events API's own limits (the page above). */
export const PAGERDUTY_LIMITS = { dedupKey: 255, summary: 1024, source: 255 } as const;

type Action = 'trigger' | 'acknowledge' | 'resolve';

const actionOf = (p: AlertPayload): Action =>
  p.event === 'recovery' ? 'resolve' : p.event === 'acknowledgement' ? 'acknowledge' : 'trigger';

export const pagerdutyDialect: Dialect = (delivery, config) => {
  const p = delivery.payload;
  const action = actionOf(p);
  const dedupKey = cutEscaped(p.alertId ?? delivery.id, PAGERDUTY_LIMITS.dedupKey);
  const base = { routing_key: config.routingKey ?? '', event_action: action, dedup_key: dedupKey };
  if (action !== 'trigger') return jsonRequest('POST', config.url, base);
  return jsonRequest('POST', config.url, {
    ...base,
    client: 'Checkwall',
    ...(p.link ? { client_url: p.link } : {}),
    payload: {
      summary: cutEscaped(`${subject(p)}${p.error ? `: ${p.error}` : ''}`, PAGERDUTY_LIMITS.summary),
      source: cutEscaped(p.check?.name ?? `channel ${p.channel.name}`, PAGERDUTY_LIMITS.source),
      severity: severityOf(p),
      timestamp: p.occurredAt,
      ...(whereOf(p) ? { component: whereOf(p) } : {}),
      ...(p.check ? { class: p.check.type, group: p.check.id } : {}),
      custom_details: {
        event: p.event,
        check: p.check,
        status: p.status,
        failingLocations: p.failingLocations,
        error: p.error,
        incidentId: p.incidentId,
        resultId: p.resultId,
      },
    },
    links: [
      ...(p.runbook ? [{ href: p.runbook, text: 'Runbook' }] : []),
      ...p.links.map((l) => ({ href: l.url, text: l.name })),
      ...(p.link ? [{ href: p.link, text: 'Checkwall' }] : []),
    ],
  });
};
