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
  return statuses.map((s) => {
    if (s.heldBy) return s;
    if (s.maintenance) return withWindow(s, s.maintenance);
    const bad = s.locations.filter((l) => l.status === 'failing' || l.status === 'unknown');
    if (bad.length === 0) return s;
    const holds = bad.map((l) => holdAt(l.id));
    if (!holds.every((h) => h !== undefined)) return s;
    const first = holds[0]!;
    const heldBy: HeldBy = {
      kind: 'location',
      id: first.locationId,
      name: first.name,
      since: new Date(first.since).toISOString(),
      location: first.locationId,
    };
    return withHeldBy(s, heldBy);
  });
}

/** A window's hold, since its occurrence started (a service before `startsAt`: when it ends is all it says). */
function withWindow(s: CheckStatus, w: NonNullable<CheckStatus['maintenance']>): CheckStatus {
  const heldBy: HeldBy = {
    kind: 'maintenance',
    id: w.id,
    name: w.name,
    since: w.startsAt ?? w.endsAt,
    location: null,
  };
  return withHeldBy(s, heldBy);
}
