// Which broken location holds a check's pages now (docs/alerts.md, "A broken location"),
// shown as `heldBy`: a check failing (or unknown) only at locations declared down. A
// maintenance window comes first; a location before a failing parent.
import type { CheckStatus, HeldBy } from '../../api/schemas/index.js';

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
    if (s.maintenance || s.heldBy) return s;
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
    return { ...s, heldBy };
  });
}
