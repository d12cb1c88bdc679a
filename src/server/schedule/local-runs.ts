// The runs this instance holds and runs itself: offered to the shared run queue (and
// tried again when storage fails), queued, run a bounded number at once on the local
// runner, their results handed to the sink given at start. Skips are counted here too
// (run-accounting.ts): every due run is stored or counted.
import { setMaxListeners } from 'node:events';
import { randomUUID } from 'node:crypto';
import type { Clock } from '../../domain/clock.js';
import type { AccountConfig, CheckConfig, LocationConfig } from '../config/schema.js';
import type { RunResult } from '../runners/types.js';
import { logFailure } from '../storage/observed.js';
import { SKIP_REASONS } from '../storage/run-queue.js';
import type { ClaimedRun, RunKey } from '../storage/types.js';
import type { RunAccounting } from './run-accounting.js';
import type { SlotState } from './slots.js';
import type { RunSink, SchedulerOptions } from './types.js';

// Waits before the second and third try of an offer; undefined: the last try.
const OFFER_RETRY_MS = [1_000, 3_000, undefined] as const;

/** A run this instance holds and runs: a slot's scheduled run, or a run asked for. */
export interface Job {
  account: AccountConfig;
  check: CheckConfig;
  location: LocationConfig;
  run: ClaimedRun;
  /** A scheduled run's slot (pending while the job is); absent for a run asked for. */
  state?: SlotState | undefined;
  /** A scheduled run not started by then is not started late (docs/service.md): it is skipped. */
  staleAt?: number | undefined;
}

export const jobOf = (state: SlotState, run: ClaimedRun, staleAt?: number): Job => ({
  // The slot as it was when the run was taken: a reload meanwhile changes the next run, not this one.
  account: state.slot.account,
  check: state.slot.check,
  location: state.slot.location,
  run,
  state,
  staleAt,
});

/** Long enough for the run to wait its turn and time out: past it, another instance may take it. */
export const leaseFor = (check: Pick<CheckConfig, 'timeoutMs'>) =>
  Math.max(60_000, 2 * check.timeoutMs + 30_000);

export interface LocalRuns {
  /** This instance's holder token in the run queue. */
  readonly token: string;
  /**
   * A local slot's turn: offered held by this instance, then queued; skipped and counted
   * while its last run is pending, or when the offer cannot be made.
   */
  turn(state: SlotState, key: RunKey, staleAt: number): void;
  /** Offers a due run, trying again on storage failures; null when another instance's offer made it. */
  offer(
    key: RunKey,
    holder?: { token: string; leaseMs: number },
    staleAt?: number,
  ): Promise<ClaimedRun | null>;
  enqueue(job: Job): void;
  /** Starts what the queue and the concurrency limit allow (it may have grown with a reload). */
  pump(): void;
  /** Counts a skipped run of the check; its status changes at its first in the window. */
  skipped(accountId: string, checkId: string, reason?: string): void;
  /** Work that close must wait for (a withdrawal of runs). */
  track(work: Promise<void>): void;
  stopped(): boolean;
  start(sink: RunSink): void;
  /** Aborts the runs in flight and waits for them. */
  stop(): Promise<void>;
  stats(): { queued: number; running: number };
}

export function createLocalRuns(
  opts: Pick<SchedulerOptions, 'queue' | 'run' | 'ctx' | 'observeLag'> & {
    clock: Clock;
    accounting: RunAccounting;
    maxConcurrentRuns: () => number;
    /** Whether the slot of this key is still scheduled (a reload may have removed it). */
    scheduled: (slotKey: string) => boolean;
  },
): LocalRuns {
  const { clock, accounting } = opts;
  const controller = new AbortController();
  // Every run in flight listens to this one signal (up to maxConcurrentRuns): not a leak.
  setMaxListeners(0, controller.signal);
  const inFlight = new Set<Promise<void>>();
  const queue: Job[] = [];
  const token = `instance-${randomUUID()}`;
  // Given by start(): no run's result is stored before it.
  let sink: RunSink = { complete: () => Promise.resolve(false) };
  let active = 0;
  let stopped = false;

  async function offer(key: RunKey, holder?: { token: string; leaseMs: number }, staleAt?: number) {
    // The key is the same each time, so a retry after an offer that did land finds it
    // there (null) and nothing is run twice; such a local run, held under this
    // instance's token, is taken over by the sweep after its lease.
    for (const waitMs of OFFER_RETRY_MS) {
      try {
        return await opts.queue.offerRun(key, clock.now(), holder, staleAt);
      } catch (error) {
        if (stopped || waitMs === undefined) throw error;
        await new Promise<void>((resolve) => clock.setTimeout(resolve, waitMs).unref());
      }
    }
    return null;
  }

  function skipped(accountId: string, checkId: string, reason?: string) {
    if (accounting.skip(accountId, checkId, clock.now(), reason)) sink.onSkipping?.(accountId, checkId);
  }

  function enqueue(job: Job) {
    if (stopped) {
      if (job.state) job.state.pending = false;
      return;
    }
    if (job.state) accounting.due();
    queue.push(job);
    pump();
  }

  async function runOne(job: Job) {
    const { account, check, location, run, state } = job;
    try {
      if (job.staleAt !== undefined && clock.now() >= job.staleAt) {
        // Waited a period for a free slot: not run late; the next due run stands for it.
        skipped(account.id, check.id, SKIP_REASONS.stale);
        return;
      }
      if (state) opts.observeLag?.(clock.now() - run.dueAt);
      const ctx = { ...opts.ctx, signal: controller.signal };
      const result: RunResult = await opts.run(account, check, location, ctx, run.triggeredBy);
      // A run cut short by stop() measured nothing about the target: keep it out.
      // False: its lease ran out and another took it over; that one's result is stored.
      // Stored under the run's id: one result per scheduled run, whoever ran it.
      if (!controller.signal.aborted && (await sink.complete(run, { ...result, id: run.id })) && state)
        accounting.stored();
    } catch (error) {
      // Runners return failures as results; an exception here is a bug in a runner or storage,
      // or the database failing, which the service's health tells once (status/health.ts).
      logFailure(`checkwall: run of ${check.id}@${location.id} threw`, error);
    } finally {
      if (state) state.pending = false;
    }
  }

  function turn(state: SlotState, key: RunKey, staleAt: number) {
    const { account, check, location } = state.slot;
    if (state.pending) {
      accounting.due();
      skipped(account.id, check.id);
      return;
    }
    state.pending = true;
    offer(key, { token, leaseMs: leaseFor(check) }, staleAt).then(
      // Null: another instance offered it first and runs it; not ours to count. A check
      // disabled or removed while its offer was out (a reload) starts no run: the run
      // lapses with its lease (a sweep leaves a gone check's runs alone).
      (run) =>
        run && opts.scheduled(state.slot.key)
          ? enqueue(jobOf(state, run, staleAt))
          : void (state.pending = false),
      (error: unknown) => {
        state.pending = false;
        // Never offered, so never run: counted as skipped, as a run the machine could not take.
        accounting.due();
        skipped(account.id, check.id);
        logFailure(`checkwall: cannot offer ${check.id}@${location.id}`, error);
      },
    );
  }

  function track(work: Promise<void>) {
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work));
  }

  function pump() {
    while (active < opts.maxConcurrentRuns() && queue.length > 0 && !stopped) {
      active++;
      track(runOne(queue.shift()!).finally(() => (active--, pump())));
    }
  }

  return {
    token,
    turn,
    offer,
    enqueue,
    pump,
    skipped,
    track,
    stopped: () => stopped,
    start: (to) => void (sink = to),
    async stop() {
      stopped = true;
      queue.length = 0;
      controller.abort(new Error('the service is stopping'));
      await Promise.allSettled([...inFlight]);
    },
    stats: () => ({ queued: queue.length, running: active }),
  };
}
