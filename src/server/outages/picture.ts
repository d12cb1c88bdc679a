// What the outage rule (src/domain/location-outage.ts) is given for each location of an
// account, read from the statuses the engine holds: each check run there, whether it fails
// there and since when, whether it passes where else it runs, and whether the location's
// remote runners are gone.
import type { CheckStatus } from '../../api/schemas/index.js';
import { hostName } from '../../domain/host-name.js';
import type { CheckHere } from '../../domain/location-outage.js';
import { frequencyToMs } from '../config/frequency.js';
import type { AccountConfig, CheckConfig, LocationConfig } from '../config/schema.js';

export interface LocationPicture {
  location: LocationConfig;
  checks: CheckHere[];
  /** The checks run here (those held while it is down), comparable or not. */
  here: CheckConfig[];
  /** One round of its checks: the shortest frequency plus that check's timeout (ms). */
  roundMs: number;
  /** Its shortest check frequency (ms); a remote location is gone after three of these unheard. */
  shortestMs: number;
}

/** When each check turned failing at each location, as this instance saw it turn. */
export function createFailingSince() {
  const since = new Map<string, number>();
  return {
    at(accountId: string, checkId: string, locationId: string, failing: boolean, now: number): number | null {
      const key = `${accountId}\0${checkId}\0${locationId}`;
      if (!failing) {
        since.delete(key);
        return null;
      }
      const seen = since.get(key);
      if (seen !== undefined) return seen;
      since.set(key, now);
      return now;
    },
  };
}
export type FailingSince = ReturnType<typeof createFailingSince>;

const passes = (s: string) => s === 'passing' || s === 'degraded';

/** The checks a location outage can judge: every type that probes from a location (not heartbeats). */
const probes = (c: CheckConfig) => c.enabled && c.type !== 'heartbeat';

export function locationPictures(
  account: AccountConfig,
  statuses: readonly CheckStatus[],
  failingSince: FailingSince,
  now: number,
): LocationPicture[] {
  const byId = new Map(statuses.map((s) => [s.checkId, s]));
  const pictures = new Map<string, LocationPicture>(
    account.locations.map((location) => [
      location.id,
      { location, checks: [], here: [], roundMs: Infinity, shortestMs: Infinity },
    ]),
  );
  for (const check of account.checks) {
    if (!probes(check)) continue;
    const status = byId.get(check.id);
    const at = new Map((status?.locations ?? []).map((l) => [l.id, l.status]));
    const period = frequencyToMs(check.frequency);
    for (const id of check.locations) {
      const picture = pictures.get(id);
      if (!picture) continue;
      picture.here.push(check);
      picture.shortestMs = Math.min(picture.shortestMs, period);
      picture.roundMs = Math.min(picture.roundMs, period + check.timeoutMs);
      const others = check.locations.filter((l) => l !== id).map((l) => at.get(l) ?? 'unknown');
      const failing = at.get(id) === 'failing';
      picture.checks.push({
        id: check.id,
        host: hostName(check.target),
        failingSince: failingSince.at(account.id, check.id, id, failing, now),
        passesElsewhere:
          others.length === 0 ? null : others.some(passes) && !others.some((s) => s === 'failing'),
      });
    }
  }
  return [...pictures.values()].filter((p) => p.here.length > 0);
}
