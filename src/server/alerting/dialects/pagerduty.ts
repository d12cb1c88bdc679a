// PagerDuty Events API v2 (https://developer.pagerduty.com/docs/events-api-v2/trigger-events/):
// one PagerDuty alert per Checkwall alert, `dedup_key` = the alert's id, so a
// trigger, its acknowledge and its resolve meet; a location outage is one PagerDuty alert
// keyed by its outage id; a check's degraded warning is one keyed by the check, resolved
// by its `degraded-end`, and so is its certificate warning (each threshold a trigger of the
// same key), resolved by its `certificate-end`. A test is a trigger of its own, keyed by the
// delivery id.
import type { AlertPayload } from '../../../api/schemas/index.js';
import { outageSentence, subject } from '../message.js';
import { alertKeyOf, closes, severityOf, whereOf } from './severity.js';
import { cutEscaped } from './facts.js';
import { jsonRequest, type Dialect } from './types.js';

/** The Events API's own limits (the page above). */
export const PAGERDUTY_LIMITS = { dedupKey: 255, summary: 1024, source: 255 } as const;

type Action = 'trigger' | 'acknowledge' | 'resolve';

const actionOf = (p: AlertPayload): Action =>
  closes(p) ? 'resolve' : p.event === 'acknowledgement' ? 'acknowledge' : 'trigger';

/** What follows the subject in the summary: the error, or a location outage's cause. */
const causeOf = (p: AlertPayload) =>
  p.error ? `: ${p.error}` : p.event === 'location' ? `: ${outageSentence(p)}` : '';

export const pagerdutyDialect: Dialect = (delivery, config) => {
  const p = delivery.payload;
  const action = actionOf(p);
  const dedupKey = cutEscaped(alertKeyOf(delivery), PAGERDUTY_LIMITS.dedupKey);
  const base = { routing_key: config.routingKey ?? '', event_action: action, dedup_key: dedupKey };
  if (action !== 'trigger') return jsonRequest('POST', config.url, base);
  return jsonRequest('POST', config.url, {
    ...base,
    client: 'Checkwall',
    ...(p.link ? { client_url: p.link } : {}),
    payload: {
      summary: cutEscaped(`${subject(p)}${causeOf(p)}`, PAGERDUTY_LIMITS.summary),
      source: cutEscaped(
        p.check?.name ?? p.location?.name ?? `channel ${p.channel.name}`,
        PAGERDUTY_LIMITS.source,
      ),
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
        ...(p.outageId ? { outageId: p.outageId, since: p.since, failing: p.failing, total: p.total } : {}),
      },
    },
    links: [
      ...(p.runbook ? [{ href: p.runbook, text: 'Runbook' }] : []),
      ...p.links.map((l) => ({ href: l.url, text: l.name })),
      ...(p.link ? [{ href: p.link, text: 'Checkwall' }] : []),
    ],
  });
};
