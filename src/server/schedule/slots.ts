// The slots: each enabled, runnable check × location at its own stable offset in its
// period (plan.ts), so runs spread evenly instead of firing in bursts. A slot's timer
// fires at its due instant (a remote one a little ahead: remote-offers.ts) and re-arms
// from that instant, not from now, so a late timer does not shift the slot. A new or
// moved slot is armed from its last stored run: soon when it is overdue.
import type { Clock, Timer } from '../../domain/clock.js';
import { createInstantTimers } from '../../domain/instant-timers.js';
import { checkKey } from '../../domain/keys.js';
import type { ServiceConfig } from '../config/schema.js';
import type { RunKey, RunPlace } from '../storage/types.js';
import { catchUpAt, followingDueAt, isRemoteSlot, nextDueAt, planSlots, type Slot } from './plan.js';
import { remoteAhead } from './remote-offers.js';
import type { SchedulerOptions } from './types.js';

export interface SlotState {
  slot: Slot;
  nextAt: number;
  /**
   * The run's key in the queue: nextAt on the plan's grid; for a catch-up run, the grid
   * instant it stands for (the last one before the start), so every instance keys it alike.
   */
  dueAt: number;
  /** The instant its timer is armed for (a key of the wheel below); undefined when unarmed. */
  firesAt?: number | undefined;
  /** Queued or running: a due turn now is skipped. */
  pending: boolean;
}

export interface Slots {
  get(key: string): SlotState | undefined;
  /** Takes the new config's slots (arming the new and moved ones once started); gives the places it removed. */
  place(next: ServiceConfig, soon?: ReadonlySet<string>): RunPlace[];
  /** Arms every slot. */
  start(): void;
  stop(): void;
  /** When the check next runs at any location; null before start or when no slot is armed. */
  nextRun(accountId: string, checkId: string): Date | null;
}

export function createSlots(deps: {
  clock: Clock;
  lastRunAt: SchedulerOptions['lastRunAt'];
  /** A slot fell due: `key` is its run's key in the queue; the slot is already armed for its next turn. */
  onDue: (state: SlotState, key: RunKey) => void;
}): Slots {
  const { clock } = deps;
  const slots = new Map<string, SlotState>();
  let byCheck = new Map<string, SlotState[]>();
  // One timer an instant, not one a slot (domain/instant-timers.ts): slots due at one
  // instant (the plan puts offsets on a grid of 250 ms to 1 s) fall due in one callback,
  // so their offers go out together and the thread wakes once.
  const wheel = createInstantTimers<SlotState, Timer>(clock, { fire });
  let started = false;
  let stopped = false;

  function disarm(state: SlotState) {
    const at = state.firesAt;
    if (at === undefined) return;
    state.firesAt = undefined;
    wheel.delete(at, state);
  }

  function fire(at: number, states: SlotState[]) {
    for (const state of states) {
      // Disarmed or armed elsewhere by an earlier slot's turn of this callback: not due now.
      if (state.firesAt !== at) continue;
      state.firesAt = undefined;
      due(state);
    }
  }

  function arm(state: SlotState, at: number, dueAt = at) {
    state.dueAt = dueAt;
    disarm(state);
    state.nextAt = at;
    const ahead = dueAt === at && isRemoteSlot(state.slot) ? remoteAhead(state.slot) : 0;
    state.firesAt = at - ahead;
    wheel.add(state.firesAt, state);
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
    arm(state, followingDueAt(state.nextAt, state.slot));
    deps.onDue(state, key);
  }

  /**
   * Arms slots that are new or moved: on their offset, or soon when they are overdue.
   * A slot a reload removed while the last runs were read is left alone.
   */
  async function armAll(states: SlotState[], soon: ReadonlySet<string> = new Set()) {
    const lasts = await Promise.all(
      states.map(({ slot }) =>
        deps.lastRunAt(slot.account.id, slot.check.id, slot.location.id).catch((error: unknown) => {
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
    const resumed = (state: SlotState) => soon.has(checkKey(state.slot.account.id, state.slot.check.id));
    const late = new Set(
      kept
        .filter(({ state, last }) => last === null || now - last >= state.slot.periodMs || resumed(state))
        .map(({ state }) => state),
    );
    for (const { state } of kept) {
      const { slot } = state;
      const onGrid = nextDueAt(now, slot.periodMs, slot.offsetMs);
      const at = catchUpAt(now, slot, late.size);
      // A check resumed here runs soon though it ran this period: keyed at its own instant,
      // not the period's grid instant, whose run is already in the queue.
      if (resumed(state)) arm(state, at, at);
      else if (late.has(state)) arm(state, at, onGrid - slot.periodMs);
      else arm(state, onGrid);
    }
  }

  function place(next: ServiceConfig, soon: ReadonlySet<string> = new Set()): RunPlace[] {
    const plan = new Map(planSlots(next).map((slot) => [slot.key, slot]));
    const removed: RunPlace[] = [];
    for (const [key, state] of slots) {
      const { slot } = state;
      if (plan.has(key)) continue;
      disarm(state); // a run in flight finishes and is recorded
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
    return removed;
  }

  return {
    get: (key) => slots.get(key),
    place,
    start() {
      started = true;
      void armAll([...slots.values()]);
    },
    stop() {
      stopped = true;
      wheel.clear();
    },
    nextRun(accountId, checkId) {
      const states = byCheck.get(checkKey(accountId, checkId));
      // A slot not armed yet (its last run still being read) has no next run to give.
      const armed = states?.filter((s) => s.nextAt > 0) ?? [];
      if (!started || armed.length === 0) return null;
      return new Date(Math.min(...armed.map((s) => s.nextAt)));
    },
  };
}
