// What the service knows of its remote runners (docs/runners.md): which remote
// location a runner token opens, when each location's runners were last in
// touch (here, and through the database for every instance), and the runners
// waiting in a long poll for a run to be offered.
import { systemClock, type Clock } from '../../domain/clock.js';
import { locationKey, runnerKey } from '../../domain/keys.js';
import { createSecretIndex } from '../config/digest.js';
import type { AccountConfig, LocationConfig, ServiceConfig } from '../config/schema.js';
import type { RunQueue } from '../storage/types.js';
import { logFailure } from '../storage/observed.js';
import { repeat, type Repeating } from '../../domain/repeat.js';
import { RUNNER_CONNECTED_MS } from './runner-contact.js';

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
  /** Runners of the location (by runner id) in touch since `since`, here or with another instance. */
  runnersSince(accountId: string, locationId: string, since: number): number;
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
  /**
   * A mark of the wakes of the location that found no runner waiting, to give
   * missedSince: taken just before a claim, whose look at the queue sees every run
   * of those wakes (an offer is stored before its wake).
   */
  missedMark(accountId: string, locationId: string): number;
  /**
   * Whether a run of the location fell due here after `mark` was taken with no runner
   * waiting to be woken. A count, not an instant: a wake in the very millisecond of a
   * claim, before it, was taken to be after it, and the poll claimed again and again,
   * never waiting, until the clock moved on.
   */
  missedSince(accountId: string, locationId: string, mark: number): boolean;
  /** A runner of the location was in touch within RUNNER_CONNECTED_MS: a run asked for there waits for it. */
  connected(accountId: string, locationId: string): boolean;
  replace(config: ServiceConfig): void;
  /** Reads every instance's contacts from the database. */
  refresh(): Promise<void>;
  /** Reads them again every few seconds, so another instance's runners count here too. */
  start(): void;
  stop(): Promise<void>;
}

/**
 * A woken long poll waits this long before it claims (schedule/claims.ts), so the runs due
 * meanwhile go in one claim and wake no other runner; a run may start this much late.
 * Why 250 ms: BENCHMARKS.md, "Claims and keys".
 */
export const CLAIM_GATHER_MS = 250;

const REFRESH_EVERY_MS = 5_000;

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
  /** The service's timers (a poll's wait); default the system's. */
  clock?: Clock | undefined;
}): RunnerHub {
  const clock = opts.clock ?? systemClock;
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
  /** How many runs of a location fell due here with no runner waiting to be woken for them. */
  const unanswered = new Map<string, number>();
  /** Each runner's newest contact, by location then runner id (this instance's and, refreshed, the others'). */
  const runners = new Map<string, Map<string, number>>();
  const noteRunner = (key: string, runnerId: string, at: number) => {
    const of = runners.get(key) ?? new Map<string, number>();
    runners.set(key, of);
    if (at > (of.get(runnerId) ?? -Infinity)) of.set(runnerId, at);
  };

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

  function lastSeen(accountId: string, locationId: string): number | null {
    const key = locationKey(accountId, locationId);
    if ((waiting.get(key)?.size ?? 0) > 0) return opts.now();
    return last.get(key) ?? null;
  }
  async function refresh() {
    for (const s of await opts.queue.runnersSeen()) {
      note(locationKey(s.accountId, s.locationId), s.lastSeenAt);
      noteRunner(locationKey(s.accountId, s.locationId), s.runnerId, s.lastSeenAt);
    }
  }
  let refresher: Repeating | undefined;

  return {
    // By the token's whole digest, compared in constant time: the index never holds a token.
    byToken: (token) => places.get(token),
    seen(accountId, locationId, runnerId) {
      const at = opts.now();
      note(locationKey(accountId, locationId), at);
      noteRunner(locationKey(accountId, locationId), runnerId, at);
      const runner = runnerKey(accountId, locationId, runnerId);
      if (at - (persisted.get(runner) ?? 0) < PERSIST_EVERY_MS) return;
      persisted.set(runner, at);
      opts.queue
        .recordRunnerSeen({ accountId, locationId, runnerId, lastSeenAt: at })
        .catch((error: unknown) => logFailure('checkwall: cannot record a runner contact', error));
    },
    lastSeen,
    connected(accountId, locationId) {
      const at = lastSeen(accountId, locationId);
      return at !== null && opts.now() - at < RUNNER_CONNECTED_MS;
    },
    wait(accountId, locationId, ms, signal) {
      const key = locationKey(accountId, locationId);
      // A runner waiting is in touch the whole time: its poll's end is no return after a silence.
      last.set(key, opts.now());
      return new Promise<void>((resolve) => {
        const set = waiting.get(key) ?? new Set<() => void>();
        waiting.set(key, set);
        const done = () => {
          clock.clearTimeout(timer);
          signal.removeEventListener('abort', done);
          set.delete(done);
          last.set(key, opts.now());
          resolve();
        };
        const timer = clock.setTimeout(done, ms);
        signal.addEventListener('abort', done, { once: true });
        set.add(done);
      });
    },
    // A run due wakes one runner, the longest waiting (a Set keeps insertion order), and
    // none while the last one woken still gathers: its claim takes this run too
    // (BENCHMARKS.md, "Claims and keys").
    wake(accountId, locationId) {
      const key = locationKey(accountId, locationId);
      const at = opts.now();
      if (at < (gathering.get(key) ?? 0)) return;
      const first = waiting.get(key)?.values().next();
      if (!first || first.done) {
        unanswered.set(key, (unanswered.get(key) ?? 0) + 1);
        return void unansweredAt.set(key, at);
      }
      gathering.set(key, at + CLAIM_GATHER_MS);
      first.value();
    },
    drained(accountId, locationId, at) {
      const key = locationKey(accountId, locationId);
      if (at > (drainedAt.get(key) ?? -Infinity)) drainedAt.set(key, at);
    },
    // A runner polls again as soon as it has started what it claimed, while those runs
    // still run: a claim then would find nothing (BENCHMARKS.md, "Claims and keys"). A run
    // due here meanwhile that woke nobody is claimed at once; another instance's wakes its
    // own runners, and any is claimed within a poll step.
    mayWaitFirst(accountId, locationId) {
      const key = locationKey(accountId, locationId);
      const drained = drainedAt.get(key);
      if (drained === undefined || opts.now() - drained >= CLAIM_GATHER_MS) return false;
      // The offer of a run is stored before its wake, so a claim made after the wake took it.
      return (unansweredAt.get(key) ?? -Infinity) < drained;
    },
    runnersSince(accountId, locationId, since) {
      let n = 0;
      for (const at of runners.get(locationKey(accountId, locationId))?.values() ?? []) if (at >= since) n++;
      return n;
    },
    missedMark: (accountId, locationId) => unanswered.get(locationKey(accountId, locationId)) ?? 0,
    missedSince: (accountId, locationId, mark) =>
      (unanswered.get(locationKey(accountId, locationId)) ?? 0) > mark,
    replace,
    refresh,
    start() {
      refresher = repeat(clock, REFRESH_EVERY_MS, refresh, (error) =>
        logFailure('checkwall: reading runner contacts failed', error),
      );
    },
    stop: async () => refresher?.stop(),
  };
}
