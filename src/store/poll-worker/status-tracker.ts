// What the poll worker remembers between polls, and the comparison of a poll
// with the last: a short fingerprint of each check (not the check itself) and the
// ETag, digest and check ids of each page read. 10,000 checks cost the worker a
// few hundred kilobytes instead of a second copy of every status; the UI thread
// holds the statuses, and gets only those whose fingerprint changed.
import { createHash } from 'node:crypto';
import type { CheckStatus, LocationOutage, ServiceHealth, StatusSummary } from '../../api/schemas/index.js';

export type ListName = 'all' | 'failing' | 'degraded';

export interface PageMemo {
  etag: string | undefined;
  digest: string | undefined;
  ids: string[];
  totalPages: number;
  summary: StatusSummary | undefined;
  /** The service's own health (meta.service), with the summary on page 1. */
  service?: ServiceHealth | undefined;
  locationOutages?: LocationOutage[] | undefined;
}

interface Known {
  fingerprint: string;
  /** Failing or degraded when last seen: listed by the hot reads. */
  hot: boolean;
}

export interface StatusTracker {
  page(list: ListName, page: number): PageMemo | undefined;
  rememberPage(list: ListName, page: number, memo: PageMemo): void;
  /** Forgets the pages of a list past its end (the list shrank). */
  trimPages(list: ListName, totalPages: number): void;
  /** Records fresh checks; returns those that differ from what was known. */
  compare(checks: readonly CheckStatus[]): CheckStatus[];
  /** After a read of the whole list: the ids known before and not listed now, forgotten. */
  removeUnseen(seen: ReadonlySet<string>): string[];
  /** Whether a check known as failing or degraded is missing from the hot lists. */
  anyLeftHot(seenHot: ReadonlySet<string>): boolean;
  /**
   * After a poll that failed half-way: what it compared is known no more, so the
   * next poll reads every page in full and sends those checks again (their ids stay
   * known, so a removal is still noticed).
   */
  forgetPoll(ids: Iterable<string>): void;
  size(): number;
}

export const isHot = (c: Pick<CheckStatus, 'status'>) => c.status === 'failing' || c.status === 'degraded';

/** 96 bits of SHA-1 of the check's JSON: equal checks, equal prints. */
export function fingerprint(check: CheckStatus): string {
  return createHash('sha1').update(JSON.stringify(check)).digest('base64').slice(0, 16);
}

export function createStatusTracker(): StatusTracker {
  const known = new Map<string, Known>();
  const pages = new Map<string, PageMemo>();
  const key = (list: ListName, page: number) => `${list}:${page}`;
  return {
    page: (list, page) => pages.get(key(list, page)),
    rememberPage: (list, page, memo) => void pages.set(key(list, page), memo),
    trimPages(list, totalPages) {
      for (let p = totalPages + 1; pages.delete(key(list, p)); p++);
    },
    compare(checks) {
      const changed: CheckStatus[] = [];
      for (const c of checks) {
        const print = fingerprint(c);
        if (known.get(c.checkId)?.fingerprint !== print) changed.push(c);
        known.set(c.checkId, { fingerprint: print, hot: isHot(c) });
      }
      return changed;
    },
    removeUnseen(seen) {
      const removed: string[] = [];
      for (const id of known.keys()) if (!seen.has(id)) removed.push(id);
      for (const id of removed) known.delete(id);
      return removed;
    },
    anyLeftHot(seenHot) {
      for (const [id, k] of known) if (k.hot && !seenHot.has(id)) return true;
      return false;
    },
    forgetPoll(ids) {
      pages.clear();
      for (const id of ids) {
        const k = known.get(id);
        if (k) known.set(id, { ...k, fingerprint: '' });
      }
    },
    size: () => known.size,
  };
}
