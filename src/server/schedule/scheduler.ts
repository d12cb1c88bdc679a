// Runs each enabled, runnable check from each of its locations at its frequency, each
// check × location in its own slot (slots.ts). A bounded number run at once (local-runs.ts).
// A check × location whose previous run has not finished (queued or running) skips its
// turn, and the skip is counted (run-accounting.ts): every due run is stored or counted.
//
// Every run goes through the shared run queue (storage/types.ts RunQueue), so several
// instances on one database share the work: at a slot's due time this instance offers
// the run; it runs it only when its offer created it (holding it under this instance's
// token), and stores it with completeRun. A remote location's run is offered unheld,
// shortly before it falls due, and waits for its runner; of several instances, one
// offers it then and the others later (remote-offers.ts). The sweep (sweep.ts) takes
// the local runs whose lease ran out (an instance killed mid-run) and runs them here.
import { systemClock, type Timer } from '../../domain/clock.js';
import { slotKey } from '../../domain/keys.js';
import type { ServiceConfig } from '../config/schema.js';
import type { ClaimedRun, RunKey, RunPlace, SkippedRun } from '../storage/types.js';
import { createLocalRuns, leaseFor, type LocalRuns } from './local-runs.js';
import { isRemoteSlot } from './plan.js';
import { createRemoteOffers } from './remote-offers.js';
import { createRunAccounting, skippedReason } from './run-accounting.js';
import { createSlots } from './slots.js';
import { createSweep } from './sweep.js';
import type { Scheduler, SchedulerOptions } from './types.js';

/** How long a run asked for waits for a runner before it is skipped. */
export const ASKED_WAIT_MS = 60_000;

/** After a reload, when the offers made before it have landed (they wait tens of milliseconds to go together). */
const WITHDRAW_AGAIN_MS = 2_000;

/**
 * A scheduled run that cannot start within half its period of its due time is not run
 * late (docs/service.md): half, so a run re-offered after its holder died never runs
 * beside its successor. A run offered after its due time (a new check's first run, a
 * catch-up) has its half period from the offer.
 */
const staleAtOf = (key: RunKey, periodMs: number, now: number) =>
  Math.max(key.dueAt, now) + Math.floor(periodMs / 2);

export function createScheduler(opts: SchedulerOptions): Scheduler {
  const clock = opts.clock ?? systemClock;
  const accounting = createRunAccounting();
  let config: ServiceConfig = opts.config;
  const local = createLocalRuns({
    ...opts,
    clock,
    accounting,
    maxConcurrentRuns: () => config.maxConcurrentRuns,
    scheduled: (key) => slots.get(key) !== undefined,
  });
  const slots = createSlots({
    clock,
    lastRunAt: opts.lastRunAt,
    onDue: (state, key) =>
      isRemoteSlot(state.slot)
        ? remote.due(state.slot.key, key)
        : local.turn(state, key, staleAtOf(key, state.slot.periodMs, clock.now())),
  });
  const remote = createRemoteOffers({
    queue: opts.queue,
    self: local.token,
    offer: (key) => {
      const state = slots.get(slotKey(key.accountId, key.checkId, key.locationId));
      return local.offer(
        key,
        undefined,
        state ? staleAtOf(key, state.slot.periodMs, clock.now()) : undefined,
      );
    },
    scheduled: (key) => slots.get(slotKey(key.accountId, key.checkId, key.locationId)) !== undefined,
    onDue: opts.onRemoteDue,
    clock,
  });
  /** Counts runs another part marked skipped (skipStaleRuns): scheduled ones, as this instance's own. */
  const noteSkipped = (runs: readonly SkippedRun[]) => {
    for (const run of runs)
      if (run.triggeredBy === 'schedule') local.skipped(run.accountId, run.checkId, run.reason);
  };
  const sweep = createSweep({
    clock,
    queue: opts.queue,
    everyMs: opts.sweepEveryMs,
    config: () => config,
    slots,
    local,
    noteSkipped,
  });
  const withdrawing = withdrawer(opts, local);
  slots.place(config);
  return {
    start(sink) {
      local.start(sink);
      remote.start();
      slots.start();
      sweep.start();
    },
    async stop() {
      sweep.stop();
      remote.stop();
      slots.stop();
      withdrawing.stop();
      await local.stop();
    },
    async reload(next, how) {
      if (local.stopped()) return;
      const removed = slots.place(next, how?.soon);
      config = next;
      local.pump(); // maxConcurrentRuns may have grown
      if (removed.length > 0) await withdrawing.withdraw(removed);
    },
    nextRun: slots.nextRun,
    skippedReason: (accountId, checkId) => {
      const count = accounting.skippedRecently(accountId, checkId, clock.now());
      return count === 0 ? undefined : skippedReason(count, accounting.lastReason(accountId, checkId));
    },
    skippedLastMinute: () => accounting.skippedLately(clock.now()),
    noteSkipped,
    ask: asker(opts, local, clock.now),
    stats: () => ({ ...accounting.totals(), ...local.stats() }),
    skippedByReason: () => accounting.skippedByReason(),
  };
}

/**
 * A run offered ahead for a slot a reload removed (its check disabled or removed, or
 * moved off the location) must not run: withdrawn at once, and again once the offers
 * already on their way when the reload came have landed. Runs in flight finish.
 */
function withdrawer(opts: SchedulerOptions, local: LocalRuns) {
  const clock = opts.clock ?? systemClock;
  const again = new Set<Timer>();
  const withdraw = (places: RunPlace[]): Promise<void> => {
    const done = opts.queue.withdrawRuns(places, clock.now()).then(
      () => undefined,
      (error: unknown) =>
        console.error('checkwall: cannot withdraw the runs of checks a reload ended', error),
    );
    local.track(done);
    return done;
  };
  return {
    async withdraw(places: RunPlace[]) {
      await withdraw(places);
      const timer = clock
        .setTimeout(() => {
          again.delete(timer);
          void withdraw(places);
        }, WITHDRAW_AGAIN_MS)
        .unref();
      again.add(timer);
    },
    stop: () => again.forEach((timer) => clock.clearTimeout(timer)),
  };
}

/**
 * A run asked for now at one place: through the queue like any other, so a remote
 * location's runners run it; a local one is held and run here at once. Asking again
 * while one is pending answers that one. It does not move the slot's schedule.
 */
function asker(opts: SchedulerOptions, local: LocalRuns, now: () => number): Scheduler['ask'] {
  return async ({ account, check, location }, triggeredBy, skip) => {
    const remoteRun = location.remote && check.type !== 'heartbeat';
    const at = now();
    const asked = await opts.queue.requestRun(
      {
        place: { accountId: account.id, checkId: check.id, locationId: location.id },
        triggeredBy,
        claim: remoteRun || skip ? undefined : { token: local.token, leaseMs: leaseFor(check) },
        staleAt: at + ASKED_WAIT_MS,
        skipped: skip,
      },
      at,
    );
    const { run, created } = asked;
    if (created && run.skipped === null) {
      const claimed: ClaimedRun = { ...run, token: run.token ?? '', leaseUntil: run.leaseUntil ?? 0 };
      if (remoteRun) opts.onRemoteDue?.(claimed);
      else local.enqueue({ account, check, location, run: claimed });
    }
    return asked;
  };
}
