// Runs each enabled, runnable check from each of its locations at its
// frequency, each check × location at its own stable offset in its period
// (schedule-plan.ts), so runs spread evenly instead of firing in bursts.
// A bounded number run at once. A check × location whose previous run has not
// finished (queued or running) skips its turn, and the skip is counted
// (run-accounting.ts): every due run is stored or counted.
import { setMaxListeners } from 'node:events';
import type { ServiceConfig } from './config-schema.js';
import type { RunResult, Scheduler, SchedulerOptions } from './contracts.js';
import { createRunAccounting } from './run-accounting.js';
import { catchUpAt, followingDueAt, nextDueAt, planSlots, type Slot } from './schedule-plan.js';

interface SlotState {
  slot: Slot;
  nextAt: number;
  timer?: NodeJS.Timeout | undefined;
  /** Queued or running: a due turn now is skipped. */
  pending: boolean;
}

export function createScheduler(opts: SchedulerOptions): Scheduler {
  const controller = new AbortController();
  // Every run in flight listens to this one signal (up to maxConcurrentRuns): not a leak.
  setMaxListeners(0, controller.signal);
  const slots = new Map<string, SlotState>();
  let byCheck = new Map<string, SlotState[]>();
  const inFlight = new Set<Promise<void>>();
  const queue: SlotState[] = [];
  const accounting = createRunAccounting();
  let config: ServiceConfig = opts.config;
  let active = 0;
  let started = false;
  let stopped = false;

  function arm(state: SlotState, at: number) {
    clearTimeout(state.timer);
    state.nextAt = at;
    state.timer = setTimeout(() => due(state), Math.max(0, at - Date.now()));
    state.timer.unref();
  }

  function due(state: SlotState) {
    if (stopped || slots.get(state.slot.key) !== state) return;
    // From the due instant, not from now: a late timer does not shift the slot.
    arm(state, followingDueAt(state.nextAt, state.slot));
    accounting.due();
    if (state.pending) {
      const { account, check } = state.slot;
      if (accounting.skip(account.id, check.id, Date.now())) opts.onSkipping?.(account.id, check.id);
      return;
    }
    state.pending = true;
    queue.push(state);
    pump();
  }

  async function runOne(state: SlotState) {
    // The slot as it was when the run started: a reload meanwhile changes the next run, not this one.
    const { account, check, location } = state.slot;
    try {
      const result: RunResult = await opts.run(
        account,
        check,
        location,
        { ...opts.ctx, signal: controller.signal },
        'schedule',
      );
      // A run cut short by stop() measured nothing about the target: keep it out.
      if (!controller.signal.aborted) {
        await opts.record(account.id, result);
        accounting.stored();
      }
    } catch (error) {
      // Runners return failures as results; an exception here is a bug in a runner or storage.
      console.error(`checkwall: run of ${check.id}@${location.id} threw`, error);
    } finally {
      state.pending = false;
    }
  }

  function pump() {
    while (active < config.maxConcurrentRuns && queue.length > 0 && !stopped) {
      const state = queue.shift()!;
      active++;
      const p = runOne(state).finally(() => {
        active--;
        inFlight.delete(p);
        pump();
      });
      inFlight.add(p);
    }
  }

  function place(next: ServiceConfig) {
    const plan = new Map(planSlots(next).map((slot) => [slot.key, slot]));
    for (const [key, state] of slots) {
      if (plan.has(key)) continue;
      clearTimeout(state.timer); // a run in flight finishes and is recorded
      slots.delete(key);
    }
    const moved: SlotState[] = [];
    for (const [key, slot] of plan) {
      const state = slots.get(key);
      const kept = state ?? { slot, nextAt: 0, pending: false };
      if (!state || state.slot.offsetMs !== slot.offsetMs || state.slot.periodMs !== slot.periodMs)
        moved.push(kept);
      kept.slot = slot;
      slots.set(key, kept);
    }
    if (started) void armAll(moved);
    byCheck = new Map();
    for (const state of slots.values()) {
      const key = checkKey(state.slot.account.id, state.slot.check.id);
      byCheck.set(key, [...(byCheck.get(key) ?? []), state]);
    }
    config = next;
  }

  /**
   * Arms slots that are new or moved: on their offset, or soon when they are overdue.
   * A slot a reload removed while the last runs were read is left alone.
   */
  async function armAll(states: SlotState[]) {
    const lasts = await Promise.all(
      states.map(({ slot }) =>
        opts.lastRunAt(slot.account.id, slot.check.id, slot.location.id).catch((error: unknown) => {
          console.error(`checkwall: cannot read the last run of ${slot.check.id}@${slot.location.id}`, error);
          return null;
        }),
      ),
    );
    if (stopped) return;
    const now = Date.now();
    const kept = states.flatMap((state, i) =>
      slots.get(state.slot.key) === state ? [{ state, last: lasts[i] ?? null }] : [],
    );
    const overdue = kept
      .filter(({ state, last }) => last === null || now - last >= state.slot.periodMs)
      .map(({ state }) => state);
    const late = new Set(overdue);
    for (const { state } of kept) {
      const { slot } = state;
      arm(
        state,
        late.has(state) ? catchUpAt(now, slot, overdue.length) : nextDueAt(now, slot.periodMs, slot.offsetMs),
      );
    }
  }

  place(config);
  return {
    start() {
      started = true;
      void armAll([...slots.values()]);
    },
    async stop() {
      stopped = true;
      for (const state of slots.values()) clearTimeout(state.timer);
      queue.length = 0;
      controller.abort(new Error('the service is stopping'));
      await Promise.allSettled([...inFlight]);
    },
    reload(next) {
      if (stopped) return;
      place(next);
      pump(); // maxConcurrentRuns may have grown
    },
    nextRun(accountId, checkId) {
      const states = byCheck.get(checkKey(accountId, checkId));
      // A slot not armed yet (its last run still being read) has no next run to give.
      const armed = states?.filter((s) => s.nextAt > 0) ?? [];
      if (!started || armed.length === 0) return null;
      return new Date(Math.min(...armed.map((s) => s.nextAt)));
    },
    skippedRecently: (accountId, checkId) => accounting.skippedRecently(accountId, checkId, Date.now()),
    stats: () => ({ ...accounting.totals(), queued: queue.length, running: active }),
  };
}

const checkKey = (accountId: string, checkId: string) => `${accountId}\u0000${checkId}`;
