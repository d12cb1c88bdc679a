// Who offers a remote location's run, and when (docs/runners.md). Of several instances
// sharing one database, the slot's owner among those connected (schedule/plan.ts
// ownerOf) offers it shortly before it falls due (REMOTE_AHEAD_MS), those of
// OWNED_GATHER_MS in one statement, and tells a waiting runner when it is due; each of the others offers it
// LATE_OFFER_MS after its due time, those of each second in one statement, in case
// the owner is gone. The run's key makes any second offer a no-op, so a wrong view
// of who is there costs a late offer or a second one, never a run.
import { systemClock, type Clock, type Timer } from '../../domain/clock.js';
import { ownerOf, type Slot } from './plan.js';
import type { ClaimedRun, RunKey, RunQueue } from '../storage/types.js';
import { logFailure } from '../storage/observed.js';

// An instance that is not the slot's owner offers late, those of a second together: an
// offer of every run by each as it falls due is a statement and a wake-up each (BENCHMARKS.md).
const LATE_OFFER_MS = 3_000;
// A remote run on the grid is offered this long before it falls due (a quarter of its
// period at most; the scheduler calls `due` that early), so the offers of a moment go in
// one statement, not one statement and wake-up each (BENCHMARKS.md); a claim takes it
// from its due time on, when a runner waiting for it is told.
const REMOTE_AHEAD_MS = 1_000;
export const remoteAhead = (slot: Pick<Slot, 'periodMs'>) => Math.min(REMOTE_AHEAD_MS, slot.periodMs / 4);
const OWNED_GATHER_MS = 250;
const LATE_FLUSH_MS = 1_000;
// The instances sharing the queue are read again this often (a killed one's slots then
// go to the others; until then they are offered late).
const INSTANCES_EVERY_MS = 2_000;

export interface RemoteOffers {
  /** The run of slot `slotKey` is (about to fall) due: offered soon by its owner, later by the others. */
  due(slotKey: string, key: RunKey): void;
  start(): void;
  stop(): void;
}

export function createRemoteOffers(opts: {
  queue: Pick<RunQueue, 'instances'>;
  /** Until the first read of the instances: this one offers every run at once, as if alone. */
  self: string;
  /** Offers the run; resolves with it when this offer created it. */
  offer(key: RunKey): Promise<ClaimedRun | null>;
  /** False for a slot a reload removed meanwhile: its late run is not offered. */
  scheduled(key: RunKey): boolean;
  /** A run this instance created is due: a runner waiting for one of its location may take it. */
  onDue?: ((run: ClaimedRun) => void) | undefined;
  clock?: Clock | undefined;
}): RemoteOffers {
  const clock = opts.clock ?? systemClock;
  let instances = { self: opts.self, all: [opts.self] };
  let late: RunKey[] = [];
  let owned: RunKey[] = [];
  let gathering: Timer | undefined;
  let unread = false;
  let stopped = false;
  const timers: Timer[] = [];

  async function read() {
    try {
      instances = await opts.queue.instances();
      unread = false;
    } catch (error) {
      // Keep the last known: at worst a slot is offered late by all, or at once by two.
      // Said once while it lasts (the offers that fail meanwhile say so each).
      if (!unread) logFailure('checkwall: cannot read the instances sharing the run queue', error);
      unread = true;
    }
  }

  /** Offers the runs of slots still scheduled, together; a run created here is told when it falls due. */
  function offerAll(keys: RunKey[]) {
    for (const key of keys)
      if (opts.scheduled(key))
        opts.offer(key).then(
          (run) => run && dueThen(run),
          (error: unknown) => logFailure(`checkwall: cannot offer ${key.checkId}@${key.locationId}`, error),
        );
  }

  function dueThen(run: ClaimedRun) {
    const tell = () => void (stopped || opts.onDue?.(run));
    const wait = run.dueAt - clock.now();
    if (wait <= 0) tell();
    else clock.setTimeout(tell, wait).unref();
  }

  /** Offers the other instances' runs due LATE_OFFER_MS ago: a no-op unless their owner is gone. */
  function offerLate() {
    const before = clock.now() - LATE_OFFER_MS;
    offerAll(late.filter((key) => key.dueAt <= before));
    late = late.filter((key) => key.dueAt > before);
  }

  /** Offers this instance's runs gathered since the first of them (one statement on PostgreSQL). */
  function offerOwned() {
    gathering = undefined;
    const keys = owned;
    owned = [];
    offerAll(keys);
  }

  return {
    due(slotKey, key) {
      if (ownerOf(slotKey, instances.all) !== instances.self) return void late.push(key);
      owned.push(key);
      gathering ??= clock.setTimeout(offerOwned, OWNED_GATHER_MS);
    },
    start() {
      void read();
      timers.push(
        clock.setInterval(() => void read(), INSTANCES_EVERY_MS),
        clock.setInterval(offerLate, LATE_FLUSH_MS),
      );
      for (const timer of timers) timer.unref();
    },
    stop() {
      stopped = true;
      for (const timer of timers) clock.clearInterval(timer);
      clock.clearTimeout(gathering);
    },
  };
}
