// Why an open incident paged no one, in words: an alert opens only after the
// check's `afterFailures` failed runs in a row (src/domain/alert-policy.ts), so
// runs alternating between locations can keep a check failing with no page; a
// maintenance window that silences the check holds its alerts too.
import { sanitize } from '../../../domain/sanitize.js';
import type { CheckStatus } from '../../../store/types.js';

/** "incident open; no alert: fewer than 2 failures in a row", or null when a page is out (or unknowable). */
export function whyNoPage(c: CheckStatus): string | null {
  // undefined: a service that does not alert; an open alert: the page went out.
  if (!c.currentIncident || c.currentAlert !== null) return null;
  if (c.maintenance?.mode === 'silence')
    return `incident open; no alert: silenced by the window ${sanitize(c.maintenance.name)}`;
  if (c.alertAfterFailures === undefined) return null;
  const n = c.alertAfterFailures;
  return `incident open; no alert: fewer than ${n} ${n === 1 ? 'failure' : 'failures'} in a row`;
}
