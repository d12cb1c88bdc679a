// GET /v1/check-statuses answers: the account's statuses filtered, sorted and
// summed once per query, then paged from.
//
// A client reads the list a page at a time: 10,000 checks are 100 requests, and
// filtering, sorting and summing all of them again for each page made one poll
// cost seconds of the service's time (see BENCHMARKS.md, "Storage, runners,
// HTTP"). The answer is kept for up to 2 s, keyed by
// the account and the query without its page, and dropped as soon as a check's
// status, incident or alert changes (the engine's version), so a check turning
// failing shows on the very next request; the other figures in it (last
// execution, averages) are at most 2 s old. Dropping it on every stored result
// rebuilt it for every run stored, and statuses took seconds.
//
// Building an answer for a large account is not free, and a request that finds
// it expired would wait for it: `refresh` (on the routes' timer) builds
// again, ahead of the requests, every answer read in the last 30 s that is 1.5 s
// old or whose statuses moved, and swaps it in when built.
import { setImmediate as yieldToIo } from 'node:timers/promises';
import type { CheckStatus, StatusSummary } from '../../api/schemas/index.js';
import type { Clock, Timer } from '../../domain/clock.js';
import type { Query } from './status-list.js';

/** What the cache needs of an answer; routes.ts keeps more in it (status-list.ts BuiltList). */
export interface ListAnswer {
  chosen: CheckStatus[];
  summary: StatusSummary;
}

const LIST_TTL_MS = 2_000;
const LIST_ENTRIES = 16;
export const REFRESH_AFTER_MS = 1_500;
export const KEEP_WARM_MS = 30_000;

/**
 * Builds an answer; `previous` is the last one built for the same query, when there
 * is one: the new one is that one moved by what changed since (status-list.ts).
 */
export type BuildList<A extends ListAnswer = ListAnswer> = (previous: A | undefined) => Promise<A>;

interface Entry<A extends ListAnswer> {
  at: number;
  version: number;
  answer: Promise<A>;
  /** The answer once built. */
  built?: A | undefined;
  build: BuildList<A>;
  readAt: number;
}

export function createListCache<A extends ListAnswer = ListAnswer>(version: () => number, now: () => number) {
  const entries = new Map<string, Entry<A>>();
  const within = (e: Entry<A>, at: number, ms: number) =>
    e.version === version() && at - e.at < ms && at >= e.at;

  function keep(key: string, entry: Entry<A>) {
    entries.delete(key);
    entries.set(key, entry);
    if (entries.size > LIST_ENTRIES) entries.delete(entries.keys().next().value!);
    // A failed build is not kept.
    entry.answer.then(
      (answer) => (entry.built = answer),
      () => {
        if (entries.get(key) === entry) entries.delete(key);
      },
    );
  }

  function read(accountId: string, q: Query, build: BuildList<A>): Promise<A> {
    const { page: _page, limit: _limit, ...rest } = q;
    const key = `${accountId}\u0000${JSON.stringify(rest)}`;
    const hit = entries.get(key);
    const at = now();
    if (hit && within(hit, at, LIST_TTL_MS)) {
      hit.readAt = at;
      return hit.answer;
    }
    // The version before the build: a change during it makes the next request build again.
    // Requests at once share one build.
    const entry = { at, version: version(), answer: build(hit?.built), build, readAt: at };
    keep(key, entry);
    return entry.answer;
  }

  let refreshing = false;
  async function refresh(): Promise<void> {
    if (refreshing) return;
    refreshing = true;
    try {
      for (const [key, old] of [...entries]) {
        const at = now();
        if (at - old.readAt > KEEP_WARM_MS || within(old, at, REFRESH_AFTER_MS)) continue;
        const v = version();
        const answer = await old.build(old.built).catch(() => undefined);
        // Requests meanwhile were answered from the old entry, or built their own.
        if (answer && entries.get(key) === old)
          keep(key, {
            at,
            version: v,
            answer: Promise.resolve(answer),
            build: old.build,
            readAt: old.readAt,
          });
        await yieldToIo();
      }
    } finally {
      refreshing = false;
    }
  }

  /** Whether an answer was read in the last KEEP_WARM_MS: `refresh` has something to do. */
  const warm = () => {
    const at = now();
    for (const entry of entries.values()) if (at - entry.readAt <= KEEP_WARM_MS) return true;
    return false;
  };

  return { read, refresh, warm };
}

/**
 * Calls `cache.refresh` every `everyMs` from a read (`touch`) until nothing read is
 * left to keep warm: a service nobody lists from has no timer for it.
 */
export function refreshWhileRead(
  cache: { refresh(): Promise<void>; warm(): boolean },
  clock: Clock,
  everyMs: number,
) {
  let timer: Timer | undefined;
  let stopped = false;
  const turn = () =>
    void cache.refresh().then(() => {
      if (cache.warm() || !timer) return;
      clock.clearInterval(timer);
      timer = undefined;
    });
  return {
    touch() {
      if (!stopped) timer ??= clock.setInterval(turn, everyMs).unref();
    },
    stop() {
      stopped = true;
      clock.clearInterval(timer);
      timer = undefined;
    },
  };
}
