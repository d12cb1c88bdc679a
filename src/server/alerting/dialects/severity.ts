// One severity map for every dialect (docs/alerts.md, "Severity"): a failure is the
// provider's most urgent level, a degraded check its warning, everything else informs.
import type { AlertPayload } from '../../../api/schemas/index.js';

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
 * a location outage's id, else the Checkwall alert's, else the delivery's own.
 */
export const alertKeyOf = (p: AlertPayload, deliveryId: string) => p.outageId ?? p.alertId ?? deliveryId;

/** The events that close the provider's alert. */
export const closes = (p: AlertPayload) => p.event === 'recovery' || p.event === 'location-recovery';
