// The `:locations` rows, derived from what the board already polls: each
// location's checks passing and failing (from the statuses' `locations[]`), its
// runners (a remote location's `runnerLastSeen`), and whether the service
// declares it down (`meta.locationOutages`). A declared outage at a location no
// status names still gets its row: the outage is the news.
import type { CheckStatus, LocationOutage } from '../../../store/types.js';

export interface LocationRow {
  id: string;
  name: string;
  passing: number;
  /** Failing or degraded: in trouble at this location. */
  failing: number;
  /** Unknown: no run to judge yet, or no runner. */
  unknown: number;
  remote: boolean;
  /** A remote location's newest runner contact over its checks (ms), null when never seen. */
  runnerLastSeen: number | null;
  outage: LocationOutage | null;
}

function emptyRow(id: string, name: string): LocationRow {
  return { id, name, passing: 0, failing: 0, unknown: 0, remote: false, runnerLastSeen: null, outage: null };
}

export function locationRows(
  checks: readonly CheckStatus[],
  outages: readonly LocationOutage[],
): LocationRow[] {
  const rows = new Map<string, LocationRow>();
  for (const c of checks)
    for (const l of c.locations) {
      const row = rows.get(l.id) ?? emptyRow(l.id, l.name);
      rows.set(l.id, row);
      if (l.status === 'passing') row.passing++;
      else if (l.status === 'unknown') row.unknown++;
      else row.failing++;
      if (l.remote) row.remote = true;
      const seen = l.runnerLastSeen ? Date.parse(l.runnerLastSeen) : Number.NaN;
      if (!Number.isNaN(seen) && (row.runnerLastSeen === null || seen > row.runnerLastSeen))
        row.runnerLastSeen = seen;
    }
  for (const o of outages) {
    const row = rows.get(o.id) ?? emptyRow(o.id, o.name);
    rows.set(o.id, row);
    row.outage = o;
  }
  // Down first, then by name: the one to look at is on top.
  return [...rows.values()].sort(
    (a, b) => Number(!!b.outage) - Number(!!a.outage) || a.name.localeCompare(b.name),
  );
}
