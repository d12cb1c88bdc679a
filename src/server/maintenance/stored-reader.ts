// The stored maintenance windows as last read (docs/maintenance.md, "Storage"): the first
// read takes every window, each later one only the rows changed since the one before
// (updated_at, by the writing instance's clock), minus READ_OVERLAP_MS, so a row written
// by an instance whose clock is behind, or committed just after a read, is still seen.
// A deleted window comes as a tombstone and leaves the map. When nothing changed within the
// overlap a read returns no row.
import type { Clock } from '../../domain/clock.js';
import { checkKey } from '../../domain/keys.js';
import type { Storage, StoredWindow } from '../storage/types.js';

/** How far back each read looks past the previous one: clock skew between instances and commit delay. */
export const READ_OVERLAP_MS = 30_000;

export interface StoredReader {
  /** The windows as read (replaced, never changed in place: an iteration is never disturbed). */
  windows(): ReadonlyMap<string, StoredWindow>;
  /** Reads what changed since the last read (everything at the first). */
  read(): Promise<void>;
  /** A window this instance saved, known at once. */
  put(window: StoredWindow): void;
  /** A window this instance deleted, gone at once. */
  drop(accountId: string, id: string): void;
}

export function createStoredReader(
  storage: Pick<Storage, 'maintenanceWindows' | 'maintenanceWindowChanges'>,
  clock: Pick<Clock, 'now'>,
): StoredReader {
  let stored = new Map<string, StoredWindow>();
  let lastRead: number | undefined;

  return {
    windows: () => stored,
    async read() {
      const now = clock.now();
      if (lastRead === undefined) {
        const all = await storage.maintenanceWindows();
        stored = new Map(all.map((w) => [checkKey(w.accountId, w.id), w]));
      } else {
        const changes = await storage.maintenanceWindowChanges(lastRead - READ_OVERLAP_MS);
        if (changes.length > 0) {
          const next = new Map(stored);
          for (const c of changes)
            if (c.window) next.set(checkKey(c.accountId, c.id), c.window);
            else next.delete(checkKey(c.accountId, c.id));
          stored = next;
        }
      }
      lastRead = now;
    },
    put(window) {
      stored = new Map(stored).set(checkKey(window.accountId, window.id), window);
    },
    drop(accountId, id) {
      const next = new Map(stored);
      next.delete(checkKey(accountId, id));
      stored = next;
    },
  };
}
