// The service's word on its own health (meta.service of the statuses list), as
// one line every view can show: the statuses below it may be wrong, and why.
import type { ServiceHealth } from '../api/schemas/index.js';
import { formatClock } from './format.js';
import { sanitize } from './sanitize.js';

/** "SERVICE DEGRADED: the database is unreachable since 14:03:07 UTC", or null when all is well. */
export function serviceTrouble(service: ServiceHealth | null | undefined): string | null {
  if (!service || service.status !== 'degraded') return null;
  const [first, ...more] = service.reasons;
  if (!first) return 'SERVICE DEGRADED';
  const since = Number.isNaN(Date.parse(first.since)) ? '' : ` since ${formatClock(first.since)} UTC`;
  const others = more.length > 0 ? ` (+${more.length} more)` : '';
  return `SERVICE DEGRADED: ${sanitize(first.message)}${since}${others}`;
}
