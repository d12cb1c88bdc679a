// The one table of a template's variables (docs/alerts.md, "Template variables"):
// what a template may name, and the view each notification renders with. A name
// that may be null for some event kinds is still a name: a section hides it.
import type { AlertPayload } from '../api/schemas/index.js';

/** A variable: a value, an object of variables, or a list of objects. */
export type Shape = 'value' | { [name: string]: Shape } | { list: { [name: string]: Shape } };

const ref = { id: 'value', name: 'value' } as const;

export const TEMPLATE_VARIABLES: { [name: string]: Shape } = {
  event: {
    kind: 'value',
    deliveryId: 'value',
    occurredAt: 'value',
    reminder: 'value',
    acknowledgedBy: 'value',
  },
  check: { id: 'value', name: 'value', type: 'value', status: 'value' },
  location: { id: 'value', name: 'value', all: 'value' },
  result: { id: 'value', error: 'value', link: 'value' },
  alert: { id: 'value' },
  incident: { id: 'value' },
  runbook: 'value',
  links: { list: { name: 'value', url: 'value' } },
  heartbeat: { exitCode: 'value', durationMs: 'value', outputTail: 'value' },
  channel: ref,
  certificate: { subject: 'value', issuer: 'value', validTo: 'value', daysRemaining: 'value' },
  outage: { id: 'value', since: 'value', failing: 'value', total: 'value', cause: 'value' },
};

/** The view a notification renders with: every name of the table, null where it has no value. */
export function templateView(p: AlertPayload, deliveryId: string): Record<string, unknown> {
  const first = p.failingLocations[0];
  const c = p.certificate;
  return {
    event: {
      kind: p.event,
      deliveryId,
      occurredAt: p.occurredAt,
      reminder: p.reminder ?? null,
      acknowledgedBy: p.acknowledgedBy ?? null,
    },
    check: p.check && { id: p.check.id, name: p.check.name, type: p.check.type, status: p.status },
    location: p.location
      ? { id: p.location.id, name: p.location.name, all: p.location.name }
      : first
        ? { id: first.id, name: first.name, all: p.failingLocations.map((l) => l.name).join(', ') }
        : null,
    result: p.check && { id: p.resultId, error: p.error, link: p.link },
    alert: p.alertId ? { id: p.alertId } : null,
    incident: p.incidentId ? { id: p.incidentId } : null,
    runbook: p.runbook,
    links: p.links.map((l) => ({ name: l.name, url: l.url })),
    heartbeat: p.heartbeat
      ? {
          exitCode: p.heartbeat.exitCode,
          durationMs: p.heartbeat.durationMs,
          outputTail: p.heartbeat.outputTail,
        }
      : null,
    channel: { id: p.channel.id, name: p.channel.name },
    certificate: c
      ? { subject: c.subject, issuer: c.issuer, validTo: c.validTo, daysRemaining: c.daysRemaining }
      : null,
    outage: p.outageId
      ? {
          id: p.outageId,
          since: p.since ?? null,
          failing: p.failing ?? null,
          total: p.total ?? null,
          cause: p.cause ?? null,
        }
      : null,
  };
}
