// The per-check part of a scrape, kept: built at most once per SNAPSHOT_MS for each
// scope (one account's key, or the sidecar's every account), on the scrape that finds
// it older, on the service's clock. Scrapes meanwhile, and scrapes that arrive while
// it is built, are answered the same text.
import type { Clock } from '../../domain/clock.js';

/** How old the per-check series of a scrape may be (docs/metrics.md). */
export const SNAPSHOT_MS = 15_000;

export interface Snapshots {
  /** The scope's text, built anew when the kept one is SNAPSHOT_MS old. */
  read(scope: string, build: () => Promise<string>): Promise<string>;
}

export function createSnapshots(clock: Pick<Clock, 'now'>): Snapshots {
  const kept = new Map<string, { at: number; text: Promise<string> }>();
  return {
    read(scope, build) {
      const now = clock.now();
      const hit = kept.get(scope);
      if (hit && now >= hit.at && now - hit.at < SNAPSHOT_MS) return hit.text;
      const text = build();
      kept.set(scope, { at: now, text });
      // A failed build is not kept: the next scrape tries again.
      text.catch(() => kept.get(scope)?.text === text && kept.delete(scope));
      return text;
    },
  };
}
