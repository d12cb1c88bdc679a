// Runs each enabled, runnable check from each of its locations at its
// frequency, each check × location at its own stable offset in its period
// (schedule-plan.ts), so runs spread evenly instead of firing in bursts.
// A bounded number run at once. A check × location whose previous run has not
// finished (queued or running) skips its turn, and the skip is counted
// (run-accounting.ts): every due run is stored or counted.
//
// Every run goes through the shared run queue (storage/types.ts RunQueue), so
// several instances on one database share the work: at a slot's due time this
// instance offers the run; it runs it only when its offer created it (holding it
// under this instance's token), and stores it with completeRun. A remote
// location's run is offered unheld, shortly before it falls due, and waits for its
// runner; of several instances, one offers it then and the others later
// (remote-offers.ts). A sweep takes the local runs whose lease ran out (an
// instance killed mid-run) and runs them here.
import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { systemClock, type Timer } from '../../domain/clock.js';
import type { CheckConfig, ServiceConfig } from '../config/schema.js';
import type { RunResult } from '../runners/types.js';
import type { RunSink, Scheduler, SchedulerOptions } from './types.js';
import { createRemoteOffers, remoteAhead } from './remote-offers.js';
import { createRunAccounting, skippedReason } from './run-accounting.js';
import { logFailure } from '../storage/observed.js';
import { checkKey, slotKey } from '../../domain/keys.js';
import { catchUpAt, followingDueAt, isRemoteSlot, nextDueAt, planSlots, type Slot } from './plan.js';
import type { ClaimedRun, RunKey, RunPlace, SkippedRun, StoredRun } from '../storage/types.js';
import { SKIP_REASONS } from '../storage/run-queue.js';
import type { AccountConfig, LocationConfig } from '../config/schema.js';

// Waits before the second and third try of an offer; undefined: the last try.
const OFFER_RETRY_MS = [1_000, 3_000, undefined] as const;

interface SlotState {
  slot: Slot;
  nextAt: number;
  /**
   * The run's key in the queue: nextAt on the plan's grid; for a catch-up run, the grid
   * instant it stands for (the last one before the start), so every instance keys it alike.
   */
  dueAt: number;
  timer?: Timer | undefined;
  /** Queued or running: a due turn now is skipped. */
  pending: boolean;
}

/** A run this instance holds and runs: a slot's scheduled run, or a run asked for. */
interface Job {
  account: AccountConfig;
  check: CheckConfig;
  location: LocationConfig;
  run: ClaimedRun;
  /** A scheduled run's slot (pending while the job is); absent for a run asked for. */
  state?: SlotState | undefined;
  /** A scheduled run not started by then is not started late (issue 32): it is skipped. */
  staleAt?: number | undefined;
}

/** How long a run asked for waits for a runner before it is skipped. */
export const ASKED_WAIT_MS = 60_000;

const SWEEP_EVERY_MS = 10_000;
const SWEEP_BATCH = 100;
/** After a reload, when the offers made before it have landed (they wait tens of milliseconds to go together). */
const WITHDRAW_AGAIN_MS = 2_000;

/** Long enough for the run to wait its turn and time out: past it, another instance may take it. */
export const leaseFor = (check: Pick<CheckConfig, 'timeoutMs'>) =>
  Math.max(60_000, 2 * check.timeoutMs + 30_000);

export function createScheduler(opts: SchedulerOptions): Scheduler {
  const clock = opts.clock ?? systemClock;
  const controller = new AbortController();
  // Every run in flight listens to this one signal (up to maxConcurrentRuns): not a leak.
  setMaxListeners(0, controller.signal);
  const slots = new Map<string, SlotState>();
  let byCheck = new Map<string, SlotState[]>();
  const inFlight = new Set<Promise<void>>();
  const queue: Job[] = [];
  const accounting = createRunAccounting();
  let config: ServiceConfig = opts.config;
  const token = `instance-${randomUUID()}`;
  let sweeper: Timer | undefined;
  // Given by start(): no run begins before it.
  let sink: RunSink = { complete: () => Promise.resolve(false) };
  let active = 0;
  let started = false;
  let stopped = false;

  function arm(state: SlotState, at: number, dueAt = at) {
    state.dueAt = dueAt;
    clock.clearTimeout(state.timer);
    state.nextAt = at;
    const ahead = dueAt === at && isRemoteSlot(state.slot) ? remoteAhead(state.slot) : 0;
    state.timer = clock.setTimeout(() => due(state), Math.max(0, at - ahead - clock.now())).unref();
  }

  function due(state: SlotState) {
    if (stopped || slots.get(state.slot.key) !== state) return;
    const { account, check, location } = state.slot;
    const key: RunKey = {
      accountId: account.id,
      checkId: check.id,
      locationId: location.id,
      dueAt: state.dueAt,
    };
    // From the due instant, not from now: a late timer does not shift the slot.
    arm(state, followingDueAt(state.nextAt, state.slot));
    if (isRemoteSlot(state.slot)) {
      // Its runners run it: this instance only records that it is due.
      remote.due(state.slot.key, key);
      return;
    }
    if (state.pending) {
      accounting.due();
      skipped(account.id, check.id);
      return;
    }
    state.pending = true;
    const staleAt = staleAtOf(key, state.slot.periodMs);
    offer(key, { token, leaseMs: leaseFor(check) }, staleAt).then(
      // Null: another instance offered it first and runs it; not ours to count. A check
      // disabled or removed while its offer was out (a reload) starts no run: the run
      // lapses with its lease (a sweep leaves a gone check's runs alone).
      (run) =>
        run && slots.has(state.slot.key) ? enqueue(jobOf(state, run, staleAt)) : void (state.pending = false),
      (error: unknown) => {
        state.pending = false;
        // Never offered, so never run: counted as skipped, as a run the machine could not take.
        accounting.due();
        skipped(account.id, check.id);
        logFailure(`checkwall: cannot offer ${check.id}@${location.id}`, error);
      },
    );
  }

  /**
   * Offers a due run, trying again twice (after 1 s, then 3 s) when storage fails (a
   * busy or briefly unreachable database): the key is the same each time, so a retry
   * after an offer that did land finds it there (null) and nothing is run twice; such a
   * local run, held under this instance's token, is taken over by the sweep after its lease.
   */
  async function offer(key: RunKey, holder?: { token: string; leaseMs: number }, staleAt?: number) {
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

  /** Counts a skipped run of the check; its status changes at its first in the window. */
  function skipped(accountId: string, checkId: string, reason?: string) {
    if (accounting.skip(accountId, checkId, clock.now(), reason)) sink.onSkipping?.(accountId, checkId);
  }

  /**
   * A scheduled run that cannot start within one period of its due time is not run late
   * (issue 32); a run offered after its due time (a new check's first run, a catch-up)
   * has its period from the offer.
   */
  const staleAtOf = (key: RunKey, periodMs: number) => Math.max(key.dueAt, clock.now()) + periodMs;

  const remote = createRemoteOffers({
    queue: opts.queue,
    self: token,
    offer: (key) => {
      const state = slots.get(slotKey(key.accountId, key.checkId, key.locationId));
      return offer(key, undefined, state ? staleAtOf(key, state.slot.periodMs) : undefined);
    },
    scheduled: (key) => slots.has(slotKey(key.accountId, key.checkId, key.locationId)),
    onDue: opts.onRemoteDue,
    clock,
  });

  const jobOf = (state: SlotState, run: ClaimedRun, staleAt?: number): Job => ({
    // The slot as it was when the run was taken: a reload meanwhile changes the next run, not this one.
    account: state.slot.account,
    check: state.slot.check,
    location: state.slot.location,
    run,
    state,
    staleAt,
  });

  function enqueue(job: Job) {
    if (stopped) {
      if (job.state) job.state.pending = false;
      return;
    }
    if (job.state) accounting.due();
    queue.push(job);
    pump();
  }

  /** Counts runs another part marked skipped (skipStaleRuns): scheduled ones, as this instance's own. */
  function noteSkipped(runs: readonly SkippedRun[]) {
    for (const run of runs)
      if (run.triggeredBy === 'schedule') skipped(run.accountId, run.checkId, run.reason);
  }

  /** Takes this instance's share of local runs whose holder stopped reporting (a killed instance). */
  async function sweep() {
    for (const account of config.accounts)
      for (const location of account.locations) {
        if (location.remote || stopped) continue;
        const now = clock.now();
        // Not started late (issue 32): a killed instance's runs past their period are skipped.
        noteSkipped(await opts.queue.skipStaleRuns(account.id, location.id, now));
        const runs = await opts.queue.claimRuns(account.id, location.id, token, now, 60_000, SWEEP_BATCH);
        for (const run of runs) {
          if (run.triggeredBy !== 'schedule') {
            const check = account.checks.find((c) => c.id === run.checkId);
            if (check) enqueue({ account, check, location, run });
            continue;
          }
          const state = slots.get(slotKey(run.accountId, run.checkId, run.locationId));
          // A run of a check gone from the config, or one this instance is running still: left to its lease.
          if (state && !state.pending && !isRemoteSlot(state.slot)) {
            state.pending = true;
            enqueue(jobOf(state, run));
          }
        }
      }
  }

  /**
   * A run asked for now at one place (issue 32): through the queue like any other, so a
   * remote location's runners run it; a local one is held and run here at once. Asking
   * again while one is pending answers that one. It does not move the slot's schedule.
   */
  async function ask(
    place: { account: AccountConfig; check: CheckConfig; location: LocationConfig },
    triggeredBy: 'api' | 'manual',
    skip?: string,
  ): Promise<{ run: StoredRun; created: boolean }> {
    const { account, check, location } = place;
    const remoteRun = location.remote && check.type !== 'heartbeat';
    const now = clock.now();
    const asked = await opts.queue.requestRun(
      {
        place: { accountId: account.id, checkId: check.id, locationId: location.id },
        triggeredBy,
        claim: remoteRun || skip ? undefined : { token, leaseMs: leaseFor(check) },
        staleAt: now + ASKED_WAIT_MS,
        skipped: skip,
      },
      now,
    );
    const { run, created } = asked;
    if (created && run.skipped === null) {
      const claimed: ClaimedRun = { ...run, token: run.token ?? '', leaseUntil: run.leaseUntil ?? 0 };
      if (remoteRun) opts.onRemoteDue?.(claimed);
      else enqueue({ account, check, location, run: claimed });
    }
    return asked;
  }

  async function runOne(job: Job) {
    const { account, check, location, run, state } = job;
    try {
      if (job.staleAt !== undefined && clock.now() >= job.staleAt) {
        // Waited a period for a free slot: not run late (issue 32); the next due run stands for it.
        skipped(account.id, check.id, SKIP_REASONS.stale);
        return;
      }
      if (state) opts.observeLag?.(clock.now() - run.dueAt);
      const result: RunResult = await opts.run(
        account,
        check,
        location,
        { ...opts.ctx, signal: controller.signal },
        run.triggeredBy,
      );
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

  function pump() {
    while (active < config.maxConcurrentRuns && queue.length > 0 && !stopped) {
      const job = queue.shift()!;
      active++;
      const p = runOne(job).finally(() => {
        active--;
        inFlight.delete(p);
        pump();
      });
      inFlight.add(p);
    }
  }

  /** Takes the new config's slots; gives the places of those it removed. */
  function place(next: ServiceConfig, soon: ReadonlySet<string> = new Set()): RunPlace[] {
    const plan = new Map(planSlots(next).map((slot) => [slot.key, slot]));
    const removed: RunPlace[] = [];
    for (const [key, { slot, timer }] of slots) {
      if (plan.has(key)) continue;
      clock.clearTimeout(timer); // a run in flight finishes and is recorded
      slots.delete(key);
      removed.push({ accountId: slot.account.id, checkId: slot.check.id, locationId: slot.location.id });
    }
    const moved: SlotState[] = [];
    for (const [key, slot] of plan) {
      const state = slots.get(key);
      const kept = state ?? { slot, nextAt: 0, dueAt: 0, pending: false };
      if (!state || state.slot.offsetMs !== slot.offsetMs || state.slot.periodMs !== slot.periodMs)
        moved.push(kept);
      kept.slot = slot;
      slots.set(key, kept);
    }
    if (started) void armAll(moved, soon);
    byCheck = new Map();
    for (const state of slots.values()) {
      const key = checkKey(state.slot.account.id, state.slot.check.id);
      byCheck.set(key, [...(byCheck.get(key) ?? []), state]);
    }
    config = next;
    return removed;
  }

  // A run offered ahead for a slot a reload removed (its check disabled or removed, or
  // moved off the location) must not run: withdrawn at once, and again once the offers
  // already on their way when the reload came have landed. Runs in flight finish.
  const withdrawAgain = new Set<Timer>();
  function withdraw(places: RunPlace[]): Promise<void> {
    const done = opts.queue.withdrawRuns(places, clock.now()).then(
      () => undefined,
      (error: unknown) =>
        console.error('checkwall: cannot withdraw the runs of checks a reload ended', error),
    );
    inFlight.add(done);
    void done.finally(() => inFlight.delete(done));
    return done;
  }

  /**
   * Arms slots that are new or moved: on their offset, or soon when they are overdue.
   * A slot a reload removed while the last runs were read is left alone.
   */
  async function armAll(states: SlotState[], soon: ReadonlySet<string> = new Set()) {
    const lasts = await Promise.all(
      states.map(({ slot }) =>
        opts.lastRunAt(slot.account.id, slot.check.id, slot.location.id).catch((error: unknown) => {
          console.error(`checkwall: cannot read the last run of ${slot.check.id}@${slot.location.id}`, error);
          return null;
        }),
      ),
    );
    if (stopped) return;
    const now = clock.now();
    const kept = states.flatMap((state, i) =>
      slots.get(state.slot.key) === state ? [{ state, last: lasts[i] ?? null }] : [],
    );
    const overdue = kept
      .filter(
        ({ state, last }) =>
          last === null ||
          now - last >= state.slot.periodMs ||
          soon.has(checkKey(state.slot.account.id, state.slot.check.id)),
      )
      .map(({ state }) => state);
    const late = new Set(overdue);
    for (const { state } of kept) {
      const { slot } = state;
      const onGrid = nextDueAt(now, slot.periodMs, slot.offsetMs);
      const at = catchUpAt(now, slot, overdue.length);
      // A check resumed here runs soon though it ran this period: keyed at its own instant,
      // not the period's grid instant, whose run is already in the queue.
      if (soon.has(checkKey(slot.account.id, slot.check.id))) arm(state, at, at);
      else if (late.has(state)) arm(state, at, onGrid - slot.periodMs);
      else arm(state, onGrid);
    }
  }

  place(config);
  return {
    start(to) {
      sink = to;
      started = true;
      remote.start();
      void armAll([...slots.values()]);
      const sweepSoon = () => {
        sweeper = clock
          .setTimeout(() => {
            sweep()
              .catch((error: unknown) => logFailure('checkwall: the run sweep failed', error))
              .finally(() => !stopped && sweepSoon());
          }, opts.sweepEveryMs ?? SWEEP_EVERY_MS)
          .unref();
      };
      sweepSoon();
    },
    async stop() {
      stopped = true;
      clock.clearTimeout(sweeper);
      remote.stop();
      for (const state of slots.values()) clock.clearTimeout(state.timer);
      for (const timer of withdrawAgain) clock.clearTimeout(timer);
      queue.length = 0;
      controller.abort(new Error('the service is stopping'));
      await Promise.allSettled([...inFlight]);
    },
    async reload(next, how) {
      if (stopped) return;
      const removed = place(next, how?.soon);
      pump(); // maxConcurrentRuns may have grown
      if (removed.length === 0) return;
      await withdraw(removed);
      const again = clock
        .setTimeout(() => {
          withdrawAgain.delete(again);
          void withdraw(removed);
        }, WITHDRAW_AGAIN_MS)
        .unref();
      withdrawAgain.add(again);
    },
    nextRun(accountId, checkId) {
      const states = byCheck.get(checkKey(accountId, checkId));
      // A slot not armed yet (its last run still being read) has no next run to give.
      const armed = states?.filter((s) => s.nextAt > 0) ?? [];
      if (!started || armed.length === 0) return null;
      return new Date(Math.min(...armed.map((s) => s.nextAt)));
    },
    skippedReason: (accountId, checkId) => {
      const count = accounting.skippedRecently(accountId, checkId, clock.now());
      return count === 0 ? undefined : skippedReason(count, accounting.lastReason(accountId, checkId));
    },
    skippedLastMinute: () => accounting.skippedLately(clock.now()),
    noteSkipped,
    ask,
    stats: () => ({ ...accounting.totals(), queued: queue.length, running: active }),
    skippedByReason: () => accounting.skippedByReason(),
  };
}
