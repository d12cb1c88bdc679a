// Every due run is either stored or counted as skipped: the counters behind
// the bench's "due vs stored", serve's backlog line, and the statusReason of a
// check whose runs are being skipped. Nothing is dropped silently.

import { checkKey } from '../../domain/keys.js';

/** How far back a skipped run still marks its check's status. */
export const SKIP_WINDOW_MS = 600_000;

export interface RunStats {
  /** Runs that came due since start (each is stored, skipped, still pending, or cut short by a stop). */
  due: number;
  /** Due runs not started because the previous run of the same check × location had not finished. */
  skipped: number;
  /** Results recorded. */
  stored: number;
  /** Runs waiting for a free slot, and runs executing, right now. */
  queued: number;
  running: number;
}

export interface RunAccounting {
  due(): void;
  stored(): void;
  /** Notes a skipped run, and why; true when it is the check's first in the window (its status changes). */
  skip(accountId: string, checkId: string, at: number, reason?: string): boolean;
  /** Why the check's latest run was skipped. */
  lastReason(accountId: string, checkId: string): string | undefined;
  /** Skipped runs of the check in the last SKIP_WINDOW_MS. */
  skippedRecently(accountId: string, checkId: string, now: number): number;
  /** Skipped runs of every check in the last HEALTH_SKIP_WINDOW_MS (the service's health). */
  skippedLately(now: number): number;
  totals(): Pick<RunStats, 'due' | 'skipped' | 'stored'>;
  /** Skipped runs since start by their reason (the sentence given to skip), for /metrics. */
  skippedByReason(): ReadonlyMap<string, number>;
}

/** How far back a skipped run marks the service's own health (status/health.ts). */
export const HEALTH_SKIP_WINDOW_MS = 60_000;

export function createRunAccounting(): RunAccounting {
  const totals = { due: 0, skipped: 0, stored: 0 };
  const skips = new Map<string, number[]>();
  // Every skip of the last minute, oldest first: the service's, not a check's.
  const lately: number[] = [];
  const trim = (now: number) => {
    let old = 0;
    while (old < lately.length && lately[old]! <= now - HEALTH_SKIP_WINDOW_MS) old++;
    lately.splice(0, old);
  };
  const reasons = new Map<string, string>();
  const byReason = new Map<string, number>();
  const recent = (key: string, now: number) => {
    const at = skips.get(key);
    if (!at) return 0;
    while (at.length > 0 && at[0]! <= now - SKIP_WINDOW_MS) at.shift();
    if (at.length === 0) {
      skips.delete(key);
      reasons.delete(key);
    }
    return at.length;
  };
  return {
    due: () => void totals.due++,
    stored: () => void totals.stored++,
    skip(accountId, checkId, at, reason = BEHIND) {
      totals.skipped++;
      byReason.set(reason, (byReason.get(reason) ?? 0) + 1);
      trim(at);
      lately.push(at);
      const key = checkKey(accountId, checkId);
      reasons.set(key, reason);
      const first = recent(key, at) === 0;
      const list = skips.get(key) ?? [];
      list.push(at);
      skips.set(key, list);
      return first;
    },
    skippedRecently: (accountId, checkId, now) => recent(checkKey(accountId, checkId), now),
    skippedLately(now) {
      trim(now);
      return lately.length;
    },
    lastReason: (accountId, checkId) => reasons.get(checkKey(accountId, checkId)),
    totals: () => ({ ...totals }),
    skippedByReason: () => byReason,
  };
}

/** Why a due run is skipped when its previous run at the place has not finished. */
export const BEHIND = 'the service is behind schedule';

/** The sentence a status carries while its check's runs are being skipped, with why the latest was. */
export function skippedReason(count: number, reason = BEHIND): string {
  const runs = count === 1 ? '1 scheduled run' : `${count} scheduled runs`;
  return `${runs} skipped in the last ${SKIP_WINDOW_MS / 60_000} min: ${reason}`;
}

/**
 * serve's once-a-minute line while the service is behind: runs due, stored and
 * skipped since the last line, and those waiting now. Null when it kept up.
 */
export function backlogLine(before: RunStats, now: RunStats): string | null {
  const skipped = now.skipped - before.skipped;
  if (skipped === 0 && now.queued === 0) return null;
  return `behind schedule: in the last minute ${now.due - before.due} runs came due, ${now.stored - before.stored} were stored, ${skipped} skipped; ${now.queued} waiting to start`;
}
