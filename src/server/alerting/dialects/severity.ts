// One severity map for every dialect (docs/alerts.md, "Severity"): a failure is the
// provider's most urgent level, a degraded check its warning, everything else informs.
import type { AlertPayload } from '../../../api/schemas/index.js';

export type Severity = 'critical' | 'warning' | 'info';

export function severityOf(p: AlertPayload): Severity {
  switch (p.event) {
    case 'failure':
    case 'reminder':
      return 'critical';
    case 'degraded':
    case 'certificate':
      return 'warning';
    case 'recovery':
    case 'acknowledgement':
    case 'test':
    default:
      return 'info';
  }
}

/** Failing locations by name, or the check's status when none is failing. */
export const whereOf = (p: AlertPayload) => p.failingLocations.map((l) => l.name).join(', ');
