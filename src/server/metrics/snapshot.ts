// The per-check part of a scrape, kept: built at most once per SNAPSHOT_MS for each
// scope (one account's key, or the sidecar's every account), on the scrape that finds
// it older, on the service's clock. Scrapes meanwhile, and scrapes that arrive while
// it is built, are answered the same text.
import type { Clock } from '../../domain/clock.js';

/** How old the per-check series of a scrape may be (docs/metrics.md). */
export const SNAPSHOT_MS = 15_000;

export interface Snapshots<T> {
  /** The scope's snapshot, built anew (from the one before, if any) when the kept one is SNAPSHOT_MS old. */
  read(scope: string, build: (previous: T | undefined) => Promise<T>): Promise<T>;
}

export function createSnapshots<T>(clock: Pick<Clock, 'now'>): Snapshots<T> {
  const kept = new Map<string, { at: number; value: Promise<T>; built?: T }>();
  return {
    read(scope, build) {
      const now = clock.now();
      const hit = kept.get(scope);
      if (hit && now >= hit.at && now - hit.at < SNAPSHOT_MS) return hit.value;
      const entry: { at: number; value: Promise<T>; built?: T } = { at: now, value: build(hit?.built) };
      kept.set(scope, entry);
      entry.value.then(
        (built) => void (entry.built = built),
        // A failed build is not kept: the next scrape tries again.
        () => kept.get(scope) === entry && kept.delete(scope),
      );
      return entry.value;
    },
  };
}
