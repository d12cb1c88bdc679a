// One severity map for every dialect (docs/alerts.md, "Severity"): a failure is the
// provider's most urgent level, a degraded check its warning, everything else informs.
import type { AlertPayload } from '../../../api/schemas/index.js';
import type { Delivery } from '../senders/types.js';

export type Severity = 'critical' | 'warning' | 'info';

export function severityOf(p: AlertPayload): Severity {
  switch (p.event) {
    case 'failure':
    case 'reminder':
    case 'location':
      return 'critical';
    case 'degraded':
    case 'certificate':
      return 'warning';
    case 'recovery':
    case 'location-recovery':
    case 'degraded-end':
    case 'certificate-end':
    case 'acknowledgement':
    case 'test':
    default:
      return 'info';
  }
}

/** Failing locations by name (a location event's own), or '' when none is failing. */
export const whereOf = (p: AlertPayload) =>
  p.location ? p.location.name : p.failingLocations.map((l) => l.name).join(', ');

/**
 * The key one provider-side alert is kept by (PagerDuty's dedup_key, Opsgenie's alias):
 * a location outage's id, else the Checkwall alert's, else a check's degraded warning's
 * (one per check, from its `degraded` to its `degraded-end`; a provider opens a new
 * alert for a key it has closed) or certificate warning's (one per check: each threshold
 * crossed triggers it again, which the provider folds into the open one, until its
 * `certificate-end`), else the delivery's own.
 */
export function alertKeyOf(delivery: Delivery): string {
  const p = delivery.payload;
  const kept = p.outageId ?? p.alertId;
  if (kept) return kept;
  if (p.check && (p.event === 'degraded' || p.event === 'degraded-end'))
    return `degraded:${delivery.channel.accountId}:${p.check.id}`;
  if (p.check && (p.event === 'certificate' || p.event === 'certificate-end'))
    return `certificate:${delivery.channel.accountId}:${p.check.id}`;
  return delivery.id;
}

/** The events that close the provider's alert. */
const CLOSING: ReadonlySet<string> = new Set([
  'recovery',
  'location-recovery',
  'degraded-end',
  'certificate-end',
]);
export const endsAlert = (event: string) => CLOSING.has(event);
export const closes = (p: AlertPayload) => endsAlert(p.event);
