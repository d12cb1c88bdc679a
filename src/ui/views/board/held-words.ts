// A hold named by the service (`heldBy`: a maintenance window, a location that is
// down, a parent check failing) and a declared location outage, in words. Every
// name comes from the network and is sanitised; a kind this console does not know
// is shown by its raw name.
import { formatClock } from '../../../domain/format.js';
import { sanitize, truncate } from '../../../domain/sanitize.js';
import type { CheckStatus, HeldBy, LocationOutage } from '../../../store/types.js';

/** "03:12" (UTC, to the minute: the wall and the banner have no room for seconds). */
const hhmm = (at: string): string => formatClock(at).slice(0, 5);

/** The short tag after `⤷` in the HOLD column: the id, which is short and what the config names. */
export const heldTag = (h: HeldBy, ellipsis: string): string =>
  truncate(
    h.kind === 'maintenance' || h.kind === 'location' || h.kind === 'dependency'
      ? sanitize(h.id)
      : `${sanitize(h.kind)} ${sanitize(h.id)}`,
    HELD_TAG_MAX,
    ellipsis,
  );

/** The HOLD column's own cap, less its mark: a long id is cut, never the row. */
const HELD_TAG_MAX = 14;

/** The check view's line: "held: depends on DB primary, failing in Frankfurt since 03:12". */
export function heldLine(h: HeldBy, c: CheckStatus): string {
  const name = sanitize(h.name);
  const since = hhmm(h.since);
  switch (h.kind) {
    case 'dependency': {
      const where = h.location ? `in ${sanitize(h.location)}` : 'anywhere';
      return `held: depends on ${name}, failing ${where} since ${since}`;
    }
    case 'location':
      return `held: ${name} is down since ${since}`;
    case 'maintenance': {
      const end = c.maintenance?.endsAt;
      return end
        ? `held: maintenance ${name} until ${hhmm(end)}`
        : `held: maintenance ${name} since ${since}`;
    }
    default:
      return `held: ${sanitize(h.kind)} ${name} since ${since}`;
  }
}

/** "LOCATION DOWN Singapore 12/14 since 03:12" (several: the first, "+N more"), or null when none. */
export function outageBanner(outages: readonly LocationOutage[]): string | null {
  const first = outages[0];
  if (!first) return null;
  const more = outages.length > 1 ? ` +${outages.length - 1} more` : '';
  return `LOCATION DOWN ${sanitize(first.name)} ${first.failing}/${first.total} since ${hhmm(first.since)}${more}`;
}
