// What holds a check's pages now, shown as `heldBy` (docs/alerts.md): a maintenance window
// over it first; else a broken location ("A broken location"), when it fails (or is unknown)
// only at locations declared down. A failing parent comes after both (dependency-held.ts).
import type { CheckStatus } from '../../api/schemas/index.js';
import { holdKey, withHeldBy } from './held.js';

export interface HoldingLocation {
  locationId: string;
  name: string;
  since: number;
}

export function withLocationHolds(
  statuses: readonly CheckStatus[],
  holdAt: (locationId: string) => HoldingLocation | undefined,
): CheckStatus[] {
  // Each location's hold asked once per build, not once per status (10,000 statuses a build).
  const asked = new Map<string, HoldingLocation | undefined>();
  const at = (id: string) => {
    if (!asked.has(id)) asked.set(id, holdAt(id));
    return asked.get(id);
  };
  return statuses.map((s) => {
    if (s.heldBy) return s;
    if (s.maintenance) return withWindow(s, s.maintenance);
    // Held when every location it fails (or is unknown) at is down; named by the first.
    let first: HoldingLocation | undefined;
    for (const l of s.locations) {
      if (l.status !== 'failing' && l.status !== 'unknown') continue;
      const hold = at(l.id);
      if (!hold) return s;
      first ??= hold;
    }
    if (!first) return s;
    const hold = first;
    return withHeldBy(
      s,
      holdKey('location', hold.locationId, hold.name, hold.since, hold.locationId),
      () => ({
        kind: 'location',
        id: hold.locationId,
        name: hold.name,
        since: new Date(hold.since).toISOString(),
        location: hold.locationId,
      }),
    );
  });
}

/** A window's hold, since its occurrence started (a service before `startsAt`: when it ends is all it says). */
function withWindow(s: CheckStatus, w: NonNullable<CheckStatus['maintenance']>): CheckStatus {
  const since = w.startsAt ?? w.endsAt;
  return withHeldBy(s, holdKey('maintenance', w.id, w.name, since, null), () => ({
    kind: 'maintenance',
    id: w.id,
    name: w.name,
    since,
    location: null,
  }));
}
