// Every fetch, timer and retry of the console lives here, outside React.
// Feeds say when they are wanted (active) and how to fetch; the poller runs each
// active feed on its interval, never two runs of one feed at once, backs off on
// failure (exponential with jitter, capped, or the server's Retry-After), and
// wakes a feed the moment it becomes active. The primary feed drives the
// connection state shown in the header.
import { backoffDelay } from '../domain/backoff.js';
import type { Clock, Timer } from '../domain/clock.js';
import { isApiError, serviceTroubleOf, type ApiErrorKind } from '../api/errors.js';
import type { MonitoringClient } from '../api/client.js';
import type { ConsoleState, ConsoleStore } from './state.js';
import type { ErrorInfo } from './types.js';

export interface FeedContext {
  client: MonitoringClient;
  store: ConsoleStore;
  signal: AbortSignal;
  /** The poller's clock: when what a feed fetched arrived. */
  now: () => number;
}

export interface Feed {
  key: string;
  primary?: boolean;
  active(state: ConsoleState): boolean;
  /** Defaults to the session's refresh interval; `now` is the poller's clock. */
  intervalMs?(state: ConsoleState, now: number): number;
  /** A string that changes when the feed must refetch at once (e.g. another check was opened). */
  target?(state: ConsoleState): string;
  /** A user's own action (a submit), not polling: pausing the polling does not hold it. */
  ignoresPause?: boolean;
  run(ctx: FeedContext): Promise<void>;
}

export interface Poller {
  pollNow(): void;
  pause(): void;
  resume(): void;
  togglePause(): void;
  stop(): void;
}

export interface PollerOptions {
  store: ConsoleStore;
  client: MonitoringClient;
  feeds: Feed[];
  signal?: AbortSignal;
  backoff?: { baseMs: number; maxMs: number };
  /** The clock tick for ages on screen; 0 turns it off (tests). */
  tickMs?: number;
  /** The poller's clock: its timers and every time it reads (the wiring's is `systemClock`). */
  clock: Clock;
}

interface FeedState {
  timer?: Timer | undefined;
  running: boolean;
  failures: number;
  wasActive: boolean;
  target: string;
  again: boolean;
  /** When the timer fires. */
  dueAt?: number | undefined;
  /** When the feed's steady wait began (after a success); undefined while it backs off. */
  restedFrom?: number | undefined;
}

export function toErrorInfo(error: unknown): ErrorInfo {
  if (isApiError(error)) {
    const service = serviceTroubleOf(error);
    return { kind: error.kind as ApiErrorKind, message: error.message, status: error.status, service };
  }
  return { kind: 'unknown', message: error instanceof Error ? error.message : String(error) };
}

export function createPoller(opts: PollerOptions): Poller {
  const { store, clock } = opts;
  const controller = new AbortController();
  opts.signal?.addEventListener('abort', () => stop(), { once: true });
  const states = new Map<Feed, FeedState>(
    opts.feeds.map((f) => [f, { running: false, failures: 0, wasActive: false, target: '', again: false }]),
  );
  const flags = { paused: false, stopped: false };
  const { run, schedule } = feedRunner(opts, controller.signal, flags);

  // A wait that became shorter (a dashboard's 60 s interval left for the console's 10 s)
  // ends when the shorter one would, not when the longer one was due.
  const shorten = (feed: Feed, st: FeedState, state: ConsoleState) => {
    if (
      flags.paused ||
      st.running ||
      st.restedFrom === undefined ||
      st.dueAt === undefined ||
      !feed.intervalMs
    )
      return;
    const due = st.restedFrom + feed.intervalMs(state, clock.now());
    if (due < st.dueAt - 1) schedule(feed, st, Math.max(0, due - clock.now()));
  };
  const unsubscribe = wakeFeeds(store, states, clock, (feed, st) => void run(feed, st), shorten);
  const ticker =
    opts.tickMs === 0
      ? undefined
      : clock.setInterval(() => store.getState().tick(clock.now()), opts.tickMs ?? 1_000);
  ticker?.unref();

  function pollNow() {
    for (const [feed, st] of states) {
      if (!feed.active(store.getState())) continue;
      st.failures = 0;
      void run(feed, st);
    }
  }
  function pause() {
    flags.paused = true;
    for (const st of states.values()) clock.clearTimeout(st.timer);
    store.getState().setPaused(true);
  }
  function resume() {
    flags.paused = false;
    store.getState().setPaused(false);
    pollNow();
  }
  function stop() {
    flags.stopped = true;
    controller.abort();
    unsubscribe();
    clock.clearInterval(ticker);
    for (const st of states.values()) clock.clearTimeout(st.timer);
  }
  return { pollNow, pause, resume, togglePause: () => (flags.paused ? resume() : pause()), stop };
}

/** One feed's run: never two at once, its next run scheduled after it, backing off on failure. */
function feedRunner(opts: PollerOptions, signal: AbortSignal, flags: { paused: boolean; stopped: boolean }) {
  const { store, client, clock } = opts;
  const backoff = opts.backoff ?? { baseMs: 1_000, maxMs: 60_000 };

  function schedule(feed: Feed, st: FeedState, delayMs: number) {
    clock.clearTimeout(st.timer);
    st.dueAt = clock.now() + delayMs;
    st.timer = clock.setTimeout(() => void run(feed, st), delayMs).unref();
  }

  async function run(feed: Feed, st: FeedState) {
    if (flags.stopped || (flags.paused && !feed.ignoresPause) || !feed.active(store.getState())) return;
    if (st.running) {
      st.again = true; // asked while in flight: run once more right after
      return;
    }
    st.running = true;
    if (feed.primary) store.getState().setPolling(true);
    let delay: number;
    try {
      await feed.run({ client, store, signal, now: clock.now });
      st.failures = 0;
      if (feed.primary) store.getState().connected(clock.now());
      delay = feed.intervalMs?.(store.getState(), clock.now()) ?? store.getState().session.refreshMs;
      st.restedFrom = clock.now();
    } catch (error) {
      if (signal.aborted) return;
      st.restedFrom = undefined;
      st.failures++;
      delay = retryDelay(error, st.failures, backoff);
      if (feed.primary) store.getState().failed(toErrorInfo(error), clock.now() + delay);
    } finally {
      st.running = false;
      if (feed.primary) store.getState().setPolling(false);
    }
    if (st.again) {
      // Right away, not through a timer: an ask is not a wait, so it does not wait on the clock.
      st.again = false;
      clock.clearTimeout(st.timer);
      return run(feed, st);
    }
    schedule(feed, st, delay);
  }
  return { run, schedule };
}

/**
 * Runs the feeds active now, then wakes feeds that become active or change
 * target and stops the timers of those that go idle. Returns the unsubscribe.
 */
function wakeFeeds(
  store: ConsoleStore,
  states: Map<Feed, FeedState>,
  clock: Clock,
  run: (feed: Feed, st: FeedState) => void,
  shorten: (feed: Feed, st: FeedState, state: ConsoleState) => void,
): () => void {
  for (const [feed, st] of states) {
    st.wasActive = feed.active(store.getState());
    st.target = feed.target?.(store.getState()) ?? '';
    if (st.wasActive) run(feed, st);
  }
  return store.subscribe((state) => {
    for (const [feed, st] of states) {
      const active = feed.active(state);
      const target = feed.target?.(state) ?? '';
      if (active && (!st.wasActive || target !== st.target)) {
        st.target = target;
        run(feed, st);
      } else if (active) shorten(feed, st, state);
      if (!active && st.wasActive) clock.clearTimeout(st.timer);
      st.wasActive = active;
    }
  });
}

export function retryDelay(error: unknown, failures: number, b: { baseMs: number; maxMs: number }): number {
  if (isApiError(error) && error.retryAfterMs !== undefined)
    return Math.min(error.retryAfterMs, 10 * b.maxMs);
  return backoffDelay(failures - 1, b.baseMs, b.maxMs);
}
