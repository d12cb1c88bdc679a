// What holds a check's pages now, shown as `heldBy` (docs/alerts.md): a maintenance window
// over it first; else a broken location ("A broken location"), when it fails (or is unknown)
// only at locations declared down. A failing parent comes after both (dependency-held.ts).
import type { CheckStatus, HeldBy } from '../../api/schemas/index.js';
import { withHeldBy } from './held.js';

export interface HoldingLocation {
  locationId: string;
  name: string;
  since: number;
}

export function withLocationHolds(
  statuses: readonly CheckStatus[],
  holdAt: (locationId: string) => HoldingLocation | undefined,
): CheckStatus[] {
  // Each location's hold asked (and its heldBy made) once per build, not once per status.
  const asked = new Map<string, HeldBy | undefined>();
  const heldAt = (id: string) => {
    if (!asked.has(id)) asked.set(id, locationHold(holdAt(id)));
    return asked.get(id);
  };
  return statuses.map((s) => {
    if (s.heldBy) return s;
    if (s.maintenance) return withWindow(s, s.maintenance);
    // Held when every location it fails (or is unknown) at is down; named by the first.
    let first: HeldBy | undefined;
    for (const l of s.locations) {
      if (l.status !== 'failing' && l.status !== 'unknown') continue;
      const held = heldAt(l.id);
      if (!held) return s;
      first ??= held;
    }
    return first ? withHeldBy(s, first) : s;
  });
}

function locationHold(hold: HoldingLocation | undefined): HeldBy | undefined {
  if (!hold) return undefined;
  return {
    kind: 'location',
    id: hold.locationId,
    name: hold.name,
    since: new Date(hold.since).toISOString(),
    location: hold.locationId,
  };
}

/** A window's hold, since its occurrence started (a service before `startsAt`: when it ends is all it says). */
function withWindow(s: CheckStatus, w: NonNullable<CheckStatus['maintenance']>): CheckStatus {
  return withHeldBy(s, {
    kind: 'maintenance',
    id: w.id,
    name: w.name,
    since: w.startsAt ?? w.endsAt,
    location: null,
  });
}
