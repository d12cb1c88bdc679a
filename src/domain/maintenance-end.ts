// When a maintenance window has ended for good, at the latest (docs/maintenance.md,
// "Storage"): stored beside the window, so retention can erase ended windows after
// historyDays without reading each one. A bound, never early: an `until` day is taken
// whole, plus the occurrence's length and a day for an occurrence extended past it.
import type { WindowTimes } from './maintenance.js';

const DAY_MS = 86_400_000;

/** The instant by which the window has ended for good; null while it repeats without end. */
export function windowEndBound(w: WindowTimes): number | null {
  const extended = Math.max(-Infinity, ...Object.values(w.occurrenceEnds));
  let bound: number | null;
  if (!w.repeat) bound = Math.max(w.endsAt, extended);
  else if (w.repeat.until)
    bound = Math.max(Date.parse(w.repeat.until) + 3 * DAY_MS + (w.endsAt - w.startsAt), extended);
  else bound = null;
  if (w.endedEarlyAt === null) return bound;
  return bound === null ? w.endedEarlyAt : Math.min(bound, w.endedEarlyAt);
}
