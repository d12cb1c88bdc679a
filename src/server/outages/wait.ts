// docs/alerts.md, "No race": a page at a location waits for that location's decision, on
// its delivery row (storage: `wait`), at most one round of the location's checks (their
// shortest frequency plus timeout, at most 60 s; `locationOutage.holdWaitSeconds`). It is
// settled as soon as the decision is made: held when the outage is declared, sent when it is
// ruled out (enough other checks there have run since and passed), and sent when its wait
// runs out.
import type { CheckStatus } from '../../api/schemas/index.js';
import { locationReason, type HoldWait, type LocationHold } from '../alerting/notify.js';
import { hostName } from '../../domain/host-name.js';
import { frequencyToMs } from '../config/frequency.js';
import type { AccountConfig, CheckConfig } from '../config/schema.js';
import type { Storage, WaitingGroup } from '../storage/types.js';
import type { LocationPicture } from './picture.js';

export const MAX_WAIT_MS = 60_000;
export const waitKey = (locationId: string) => `location:${locationId}`;
export const locationOfWait = (on: string) =>
  on.startsWith('location:') ? on.slice('location:'.length) : null;

interface Place {
  /** One round of its checks: the shortest frequency plus that check's timeout (ms). */
  roundMs: number;
  /** Its checks that also run elsewhere, and their distinct target hosts: what can declare an outage. */
  comparable: number;
  hosts: Set<string>;
}

const places = new WeakMap<AccountConfig, Map<string, Place>>();

/** Each location's round and what could declare it down, worked out once per account config. */
function placesOf(account: AccountConfig): Map<string, Place> {
  let of = places.get(account);
  if (of) return of;
  of = new Map();
  for (const c of account.checks) {
    if (!c.enabled || c.type === 'heartbeat') continue;
    const round = frequencyToMs(c.frequency) + c.timeoutMs;
    for (const l of c.locations) {
      const place = of.get(l) ?? { roundMs: Infinity, comparable: 0, hosts: new Set<string>() };
      place.roundMs = Math.min(place.roundMs, round);
      if (c.locations.length > 1) {
        place.comparable++;
        place.hosts.add(hostName(c.target));
      }
      of.set(l, place);
    }
  }
  places.set(account, of);
  return of;
}

/** Whether any location of the account could be declared down (or is remote, whose runners may stop). */
export function outagePossible(account: AccountConfig): boolean {
  const { enabled, minChecks } = account.locationOutage;
  if (!enabled) return false;
  const all = placesOf(account);
  if (account.locations.some((l) => l.remote && all.has(l.id))) return true;
  return (
    all.size >= 2 && [...all.values()].some((p) => p.comparable >= minChecks && p.hosts.size >= minChecks)
  );
}

/**
 * The wait of a page of `check` at `locationId`; undefined when no outage can be declared
 * there (too few checks there also run elsewhere, or across too few hosts): nothing to wait for.
 */
export function holdWaitOf(
  account: AccountConfig,
  check: CheckConfig,
  locationId: string,
): HoldWait | undefined {
  const settings = account.locationOutage;
  if (!settings.enabled || check.type === 'heartbeat') return undefined;
  const all = placesOf(account);
  const place = all.get(locationId);
  if (all.size < 2 || !place) return undefined;
  if (place.comparable < settings.minChecks || place.hosts.size < settings.minChecks) return undefined;
  const ms =
    settings.holdWaitSeconds !== undefined
      ? settings.holdWaitSeconds * 1000
      : Math.min(place.roundMs, MAX_WAIT_MS);
  if (ms <= 0) return undefined;
  const name = account.locations.find((l) => l.id === locationId)?.name ?? locationId;
  return {
    on: waitKey(locationId),
    ms,
    note: `waiting up to ${Math.round(ms / 1000)} s: is location ${name} down? (docs/alerts.md, "No race")`,
  };
}

/**
 * Whether the location's outage is ruled out for pages waiting since `since`: at least
 * minChecks other checks there have passed since, and those turned failing since are
 * fewer than minShare of all that ran.
 */
export function ruledOut(
  account: AccountConfig,
  picture: LocationPicture,
  statuses: ReadonlyMap<string, CheckStatus>,
  since: number,
): boolean {
  const { minChecks, minShare } = account.locationOutage;
  const here = picture.location.id;
  let passed = 0;
  for (const check of picture.here) {
    const at = statuses.get(check.id)?.locations.find((l) => l.id === here);
    if (at && at.status !== 'failing' && at.lastSuccess && Date.parse(at.lastSuccess) >= since) passed++;
  }
  const failed = picture.checks.filter((c) => c.failingSince !== null && c.failingSince >= since).length;
  return passed >= minChecks && failed < minShare * (passed + failed);
}

/**
 * Settles the account's waiting pages after its locations were judged: held where an outage
 * stands, sent where it is ruled out, the location is gone, or the wait ran out. Returns how
 * many go now.
 */
export async function settleWaits(
  storage: Pick<Storage, 'settleWaiting'>,
  account: AccountConfig,
  waits: readonly WaitingGroup[],
  judged: { pictures: readonly LocationPicture[]; statuses: readonly CheckStatus[] },
  holdAt: (locationId: string) => LocationHold | undefined,
  now: number,
): Promise<number> {
  const statuses = new Map(judged.statuses.map((s) => [s.checkId, s]));
  let released = 0;
  for (const wait of waits) {
    const id = locationOfWait(wait.on);
    const hold = id === null ? undefined : holdAt(id);
    const picture = judged.pictures.find((p) => p.location.id === id);
    if (hold) await storage.settleWaiting(account.id, wait.on, { held: locationReason(hold) }, now);
    else {
      const all = !picture || ruledOut(account, picture, statuses, wait.since);
      if (all || wait.until <= now)
        released += await storage.settleWaiting(
          account.id,
          wait.on,
          { release: all ? 'all' : 'expired' },
          now,
        );
    }
  }
  return released;
}
