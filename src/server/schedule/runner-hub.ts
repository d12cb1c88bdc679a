// What the service knows of its remote runners (issue 12): which remote
// location a runner token opens, when each location's runners were last in
// touch (here, and through the database for every instance), and the runners
// waiting in a long poll for a run to be offered.
import { createSecretIndex } from '../config/digest.js';
import type { AccountConfig, LocationConfig, ServiceConfig } from '../config/schema.js';
import type { RunQueue } from '../storage/types.js';

export interface RunnerPlace {
  account: AccountConfig;
  location: LocationConfig;
}

export interface RunnerHub {
  /** The remote location a runner token opens; undefined for any other string (an API key too). */
  byToken(token: string): RunnerPlace | undefined;
  /** A runner of the location is in touch now. */
  seen(accountId: string, locationId: string, runnerId: string): void;
  /** Newest contact of any runner of the location (now while one is waiting in a poll); null if none. */
  lastSeen(accountId: string, locationId: string): number | null;
  /** Resolves when woken for a run of the location, after `ms`, or when `signal` aborts. */
  wait(accountId: string, locationId: string, ms: number, signal: AbortSignal): Promise<void>;
  /** A run of the location is due: one waiting runner is woken to claim it, unless one woken is gathering. */
  wake(accountId: string, locationId: string): void;
  /** A claim here made at `at` took every run of the location then due (it was given fewer than it asked for). */
  drained(accountId: string, locationId: string, at: number): void;
  /**
   * Whether a poll may wait before its first claim: a claim here took every run of the
   * location due less than a gather ago, and each run due here since woke a runner or
   * fell in a woken one's gather.
   */
  mayWaitFirst(accountId: string, locationId: string): boolean;
  /** Whether a run of the location fell due here at or after `since` with no runner waiting to be woken. */
  missedSince(accountId: string, locationId: string, since: number): boolean;
  replace(config: ServiceConfig): void;
  /** Reads every instance's contacts from the database. */
  refresh(): Promise<void>;
}

/**
 * A woken long poll waits this long before it claims (http/runner-routes.ts): at 10,000
 * checks a location has a run due every few milliseconds, and a claim each was a write per
 * run. At 100 ms the claims were still PostgreSQL's largest cost in bench:scale (28 % of a
 * core; 12 % at 250 ms), and a run may start up to this much later than it is due. The runs
 * due meanwhile go in that claim, so they wake no other runner.
 */
export const CLAIM_GATHER_MS = 250;

// Contacts go to the database at most this often per runner; another instance sees them a little later.
const PERSIST_EVERY_MS = 5_000;
/** A location unheard of for this long counts as back when a runner calls (statuses are recomputed). */
const RETURN_AFTER_MS = 5_000;

export function createRunnerHub(opts: {
  config: ServiceConfig;
  queue: Pick<RunQueue, 'recordRunnerSeen' | 'runnersSeen'>;
  now: () => number;
  /** A location's runners are back in touch after a silence: statuses judged without them are stale. */
  onReturn: () => void;
}): RunnerHub {
  const places = createSecretIndex<RunnerPlace>();
  const last = new Map<string, number>();
  const persisted = new Map<string, number>();
  const waiting = new Map<string, Set<() => void>>();
  /** Until when a location's last woken runner gathers the runs due before it claims. */
  const gathering = new Map<string, number>();
  /** When a claim here last took every run of a location then due. */
  const drainedAt = new Map<string, number>();
  /** When a run of a location last fell due here with no runner waiting to be woken for it. */
  const unansweredAt = new Map<string, number>();
  const where = (accountId: string, locationId: string) => `${accountId}\u0000${locationId}`;

  function replace(config: ServiceConfig) {
    places.clear();
    for (const account of config.accounts)
      for (const location of account.locations)
        if (location.remote && location.runnerToken) places.set(location.runnerToken, { account, location });
  }
  replace(opts.config);

  function note(key: string, at: number) {
    const before = last.get(key);
    if (before === undefined || at > before) last.set(key, at);
    if (before === undefined || at - before > RETURN_AFTER_MS) opts.onReturn();
  }

  return {
    // By the token's whole digest, compared in constant time: the index never holds a token.
    byToken: (token) => places.get(token),
    seen(accountId, locationId, runnerId) {
      const at = opts.now();
      note(where(accountId, locationId), at);
      const runner = `${where(accountId, locationId)}\u0000${runnerId}`;
      if (at - (persisted.get(runner) ?? 0) < PERSIST_EVERY_MS) return;
      persisted.set(runner, at);
      opts.queue
        .recordRunnerSeen({ accountId, locationId, runnerId, lastSeenAt: at })
        .catch((error: unknown) => console.error('checkwall: cannot record a runner contact', error));
    },
    lastSeen(accountId, locationId) {
      const key = where(accountId, locationId);
      if ((waiting.get(key)?.size ?? 0) > 0) return opts.now();
      return last.get(key) ?? null;
    },
    wait(accountId, locationId, ms, signal) {
      const key = where(accountId, locationId);
      // A runner waiting is in touch the whole time: its poll's end is no return after a silence.
      last.set(key, opts.now());
      return new Promise<void>((resolve) => {
        const set = waiting.get(key) ?? new Set<() => void>();
        waiting.set(key, set);
        const done = () => {
          clearTimeout(timer);
          signal.removeEventListener('abort', done);
          set.delete(done);
          last.set(key, opts.now());
          resolve();
        };
        const timer = setTimeout(done, ms);
        signal.addEventListener('abort', done, { once: true });
        set.add(done);
      });
    },
    // A run due wakes one runner, the longest waiting (a Set keeps insertion order): at
    // 167 runs a second, waking all of them was a claim by each for every run. None while
    // the last one woken still gathers: its claim takes this run too (waking one for each
    // run due was still 50 claims a second per instance in bench:scale, most for a run or two).
    wake(accountId, locationId) {
      const key = where(accountId, locationId);
      const at = opts.now();
      if (at < (gathering.get(key) ?? 0)) return;
      const first = waiting.get(key)?.values().next();
      if (!first || first.done) return void unansweredAt.set(key, at);
      gathering.set(key, at + CLAIM_GATHER_MS);
      first.value();
    },
    drained(accountId, locationId, at) {
      const key = where(accountId, locationId);
      if (at > (drainedAt.get(key) ?? -Infinity)) drainedAt.set(key, at);
    },
    // A runner polls again as soon as it has started what it claimed, while those runs
    // still run: that first claim found nothing nearly every time, and was half of all
    // claims in bench:scale. A run due here meanwhile that woke nobody is claimed at once;
    // another instance's wakes its own runners, and any is claimed within a poll step.
    mayWaitFirst(accountId, locationId) {
      const key = where(accountId, locationId);
      const drained = drainedAt.get(key);
      if (drained === undefined || opts.now() - drained >= CLAIM_GATHER_MS) return false;
      // The offer of a run is stored before its wake, so a claim made after the wake took it.
      return (unansweredAt.get(key) ?? -Infinity) < drained;
    },
    missedSince: (accountId, locationId, since) =>
      (unansweredAt.get(where(accountId, locationId)) ?? -Infinity) >= since,
    replace,
    async refresh() {
      for (const s of await opts.queue.runnersSeen()) note(where(s.accountId, s.locationId), s.lastSeenAt);
    },
  };
}
