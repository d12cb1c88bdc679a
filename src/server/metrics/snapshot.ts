// The per-check part of a scrape, kept per scope (one account's key, or the sidecar's
// every account) and built ahead of the scrapes that read it, so none waits for it.
//
// A scrape is answered from the kept snapshot while it is under SNAPSHOT_MS old on the
// service's clock. Each scope's scrapes tell its interval (the shortest of the last few
// gaps: two Prometheus servers of a pair scrape it at their own phases). Once a second
// the scopes are looked at: when the next scrape is due within REFRESH_MS and would find
// the kept snapshot older than REFRESH_MS, it is built anew, so that scrape finds it
// some 10 s old. At a 15 s interval that is one build per scrape, 5 s after it; at 60 s,
// one 50 s after it; at shorter intervals, one every 5 to 10 s. While a scrape is late
// (LATE_MS past due), the snapshot is built again whenever it is REFRESH_MS old. Only a
// scrape with no snapshot young enough and none being built (a scope's first, or one
// after WATCH_MS without scrapes) builds in its request.
import type { Clock, Timer } from '../../domain/clock.js';

/** How old the per-check series of a scrape may be (docs/metrics.md). */
export const SNAPSHOT_MS = 15_000;
/** A snapshot this old is built anew ahead of the next scrape due. */
export const REFRESH_MS = 10_000;
/** A scrape this long past its due time is late: the snapshot is then kept fresh until it comes. */
export const LATE_MS = 2_000;
/** How often the scopes are looked at. */
export const TICK_MS = 1_000;
/** A scope no scrape read in this long (or three of its intervals, if longer) is no longer built ahead. */
export const WATCH_MS = 120_000;
// Scrapes remembered per scope, for its interval.
const SCRAPES_KEPT = 5;

export interface Snapshots<T> {
  /** The scope's snapshot: the kept one while under SNAPSHOT_MS old, else the one being built, else new. */
  read(scope: string, build: () => Promise<T>): Promise<T>;
  /** Stops building ahead. */
  stop(): void;
}

interface Scope<T> {
  build: () => Promise<T>;
  kept?: { at: number; value: T };
  building?: { at: number; value: Promise<T> };
  scrapes: number[];
}

export function createSnapshots<T>(
  clock: Pick<Clock, 'now' | 'setInterval' | 'clearInterval'>,
  log: (line: string) => void,
): Snapshots<T> {
  const scopes = new Map<string, Scope<T>>();
  let timer: Timer | undefined;
  let stopped = false;
  const young = (at: number, now: number) => now >= at && now - at < SNAPSHOT_MS;

  const start = (scope: Scope<T>, now: number): Promise<T> => {
    const value = scope.build();
    const building = { at: now, value };
    scope.building = building;
    value.then(
      (built) => {
        if (scope.building === building) scope.building = undefined;
        if (!scope.kept || scope.kept.at <= now) scope.kept = { at: now, value: built };
      },
      // A failed build is not kept: the next scrape, or the next look, tries again.
      () => scope.building === building && (scope.building = undefined),
    );
    return value;
  };

  const look = () => {
    const now = clock.now();
    for (const [name, scope] of scopes) {
      const last = scope.scrapes.at(-1)!;
      const interval = shortestGap(scope.scrapes);
      if (now - last > Math.max(WATCH_MS, 3 * (interval ?? 0))) {
        scopes.delete(name);
        continue;
      }
      if (scope.building) continue;
      // An interval not known yet (one scrape so far): the next scrape is taken as late.
      const due = last + (interval ?? 0);
      const keptAt = scope.kept?.at ?? -Infinity;
      // Ahead: the scrape due within REFRESH_MS would find the snapshot older than REFRESH_MS.
      const ahead = now >= due - REFRESH_MS && due - keptAt > REFRESH_MS;
      // Late: while the scrape due has not come, whenever the snapshot is REFRESH_MS old.
      const late = now > due + LATE_MS && now - keptAt >= REFRESH_MS;
      if (ahead || late)
        start(scope, now).catch((error: unknown) =>
          log(`building the /metrics snapshot ahead failed: ${(error as Error).message}`),
        );
    }
    if (scopes.size === 0 && timer) {
      clock.clearInterval(timer);
      timer = undefined;
    }
  };

  return {
    read(name, build) {
      const now = clock.now();
      let scope = scopes.get(name);
      if (!scope) scopes.set(name, (scope = { build, scrapes: [] }));
      scope.build = build;
      scope.scrapes.push(now);
      if (scope.scrapes.length > SCRAPES_KEPT) scope.scrapes.shift();
      if (!stopped) timer ??= clock.setInterval(look, TICK_MS).unref();
      if (scope.kept && young(scope.kept.at, now)) return Promise.resolve(scope.kept.value);
      if (scope.building && young(scope.building.at, now)) return scope.building.value;
      return start(scope, now);
    },
    stop() {
      stopped = true;
      clock.clearInterval(timer);
      timer = undefined;
      scopes.clear();
    },
  };
}

/** The shortest gap between these times; undefined with fewer than two. */
function shortestGap(times: readonly number[]): number | undefined {
  let shortest: number | undefined;
  for (let i = 1; i < times.length; i++) {
    const gap = times[i]! - times[i - 1]!;
    if (gap >= 0 && (shortest === undefined || gap < shortest)) shortest = gap;
  }
  return shortest;
}
