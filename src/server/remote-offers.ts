// Who offers a remote location's run when several instances share one database
// (issue 12): the slot's owner among the instances connected (schedule-plan.ts
// ownerOf) offers it shortly before it falls due (the scheduler calls `due` that
// early), those of OWNED_GATHER_MS in one statement; each of the others offers it
// LATE_OFFER_MS after its due time, those of each second in one statement, in case
// the owner is gone. The run's key makes any second offer a no-op, so a wrong view
// of who is there costs a late offer or a second one, never a run.
import { ownerOf } from './schedule-plan.js';
import type { RunKey, RunQueue } from './storage/types.js';

// In bench:scale each instance offering every run as it fell due was one statement a
// run (136 a second each, half of all their statements), each a wake-up of PostgreSQL
// and the instance.
const LATE_OFFER_MS = 3_000;
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
  offer(key: RunKey): void;
  /** False for a slot a reload removed meanwhile: its late run is not offered. */
  scheduled(key: RunKey): boolean;
}): RemoteOffers {
  let instances = { self: opts.self, all: [opts.self] };
  let late: RunKey[] = [];
  let owned: RunKey[] = [];
  let gathering: NodeJS.Timeout | undefined;
  let unread = false;
  const timers: NodeJS.Timeout[] = [];

  async function read() {
    try {
      instances = await opts.queue.instances();
      unread = false;
    } catch (error) {
      // Keep the last known: at worst a slot is offered late by all, or at once by two.
      // Said once while it lasts (the offers that fail meanwhile say so each).
      if (!unread) console.error('checkwall: cannot read the instances sharing the run queue', error);
      unread = true;
    }
  }

  /** Offers the other instances' runs due LATE_OFFER_MS ago: a no-op unless their owner is gone. */
  function offerLate() {
    const before = Date.now() - LATE_OFFER_MS;
    const due = late.filter((key) => key.dueAt <= before);
    late = late.filter((key) => key.dueAt > before);
    for (const key of due) if (opts.scheduled(key)) opts.offer(key);
  }

  /** Offers this instance's runs gathered since the first of them (one statement on PostgreSQL). */
  function offerOwned() {
    gathering = undefined;
    const due = owned;
    owned = [];
    for (const key of due) if (opts.scheduled(key)) opts.offer(key);
  }

  return {
    due(slotKey, key) {
      if (ownerOf(slotKey, instances.all) !== instances.self) return void late.push(key);
      owned.push(key);
      gathering ??= setTimeout(offerOwned, OWNED_GATHER_MS);
    },
    start() {
      void read();
      timers.push(
        setInterval(() => void read(), INSTANCES_EVERY_MS),
        setInterval(offerLate, LATE_FLUSH_MS),
      );
      for (const timer of timers) timer.unref();
    },
    stop() {
      for (const timer of timers) clearInterval(timer);
      clearTimeout(gathering);
    },
  };
}
