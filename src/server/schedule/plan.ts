// Where in its period each check × location runs: pure, so it is tested
// without timers. A slot's offset is a hash of its own ids scaled to its
// period and anchored to the epoch, so
// - runs spread evenly: 10,000 checks at 60 s are ~167 runs every second, not bursts;
// - offsets fall on a grid (gridMs: a quarter second, or for slower checks half a
//   second or a second while that is at most 1 % of the period), so the runs of one tick
//   share a wake-up of every thread they pass through (the slots' timers, the
//   writer's transaction, the run worker): at 20 runs a second the quarter-second
//   grid cut the service's CPU by a third against offsets to the millisecond
//   (BENCHMARKS.md, "bench:threads, offsets on a quarter-second grid"), and at 5
//   runs a second of 100 s checks the 1 s grid cut it by a fifth (BENCHMARKS.md,
//   "bench:threads, a grid keyed to the period"). The grids nest (each instant of
//   a coarser one is an instant of the finer), so checks on different grids
//   still fall due together, and a coarser grid holds at least 100 instants of
//   a period, so no instant of it holds much more than 1 % of the checks sharing
//   that period;
// - a restart keeps every offset (same ids, same period, same instants);
// - adding a check places it without moving any other (nothing depends on the others).
// A slot that is overdue (never run, or not within its period: a new check, a
// long stop) runs once soon, so a new check does not wait up to its period to
// show anything; those first runs keep the same order, spread over a window
// that holds them to CATCH_UP_PER_SECOND, and then the slot joins its offset.
import { createHash } from 'node:crypto';
import { slotKey } from '../../domain/keys.js';
import {
  frequencyToMs,
  type AccountConfig,
  type CheckConfig,
  type LocationConfig,
} from '../config/schema.js';
import { isRunnable } from '../runners/index.js';
import type { ServiceConfig } from '../config/schema.js';

export interface Slot {
  key: string;
  account: AccountConfig;
  check: CheckConfig;
  location: LocationConfig;
  periodMs: number;
  /** Where in its period it falls, in [0, 1) (slotPhase); offsetMs is this on its grid. */
  phase: number;
  offsetMs: number;
}

/** The finest grid of offsets, a quarter second: every grid's instants are instants of it. */
export const TICK_MS = 250;

/** The coarser grids, coarsest first; each a multiple of the next, and each divides any whole-second period. */
const GRIDS_MS = [1_000, 500] as const;

/** The fewest instants of its grid a period holds, unless the quarter-second grid has fewer. */
const INSTANTS_AT_LEAST = 100;

/**
 * The grid a period's offsets fall on: the coarsest of 1 s, 500 ms and 250 ms that
 * still puts 100 instants in the period (1 m: 500 ms; 100 s and slower: 1 s; 25 s
 * and faster: 250 ms). A coarser grid means fewer ticks a second that hold a run.
 */
export const gridMs = (periodMs: number): number =>
  GRIDS_MS.find((grid) => periodMs / grid >= INSTANTS_AT_LEAST) ?? TICK_MS;

/** Where in its period a slot falls, a fraction in [0, 1) from the ids alone: its offset is this on its grid. */
export function slotPhase(accountId: string, checkId: string, locationId: string): number {
  const digest = createHash('sha256')
    .update(slotKey(accountId, checkId, locationId))
    .digest();
  // 48 bits: uniform, and exact in a double.
  return digest.readUIntBE(0, 6) / 2 ** 48;
}

/** A slot's offset from its phase: a multiple of gridMs(periodMs) in [0, periodMs). */
export function phaseOffsetMs(phase: number, periodMs: number): number {
  const grid = gridMs(periodMs);
  const instants = Math.max(1, Math.floor(periodMs / grid));
  return Math.floor(phase * instants) * grid;
}

/** A multiple of gridMs(periodMs) in [0, periodMs) from the ids alone. */
export const slotOffsetMs = (accountId: string, checkId: string, locationId: string, periodMs: number) =>
  phaseOffsetMs(slotPhase(accountId, checkId, locationId), periodMs);

/** The first instant at or after `at` that is `offsetMs` into a period (periods start at the epoch). */
export function nextDueAt(at: number, periodMs: number, offsetMs: number): number {
  const base = Math.floor((at - offsetMs) / periodMs) * periodMs + offsetMs;
  return base >= at ? base : base + periodMs;
}

const CATCH_UP_MIN_MS = 3_000;
const CATCH_UP_PER_SECOND = 200;

/**
 * When an overdue slot first runs, one of `overdue` slots catching up at once: by its
 * phase, not its offset, so slots sharing an instant of a coarse grid are spread too.
 */
export function catchUpAt(now: number, slot: Pick<Slot, 'periodMs' | 'phase'>, overdue: number): number {
  const windowMs = Math.min(slot.periodMs, Math.max(CATCH_UP_MIN_MS, (overdue / CATCH_UP_PER_SECOND) * 1000));
  return now + Math.floor(slot.phase * windowMs);
}

/** The run after one at `at`: back on the slot's offset, at least half a period later. */
export const followingDueAt = (at: number, slot: Pick<Slot, 'periodMs' | 'offsetMs'>) =>
  nextDueAt(at + slot.periodMs / 2, slot.periodMs, slot.offsetMs);

/** Run by the location's runners: a remote location's checks, except heartbeats (judged where pings arrive). */
export const isRemoteSlot = (slot: Pick<Slot, 'check' | 'location'>) =>
  slot.location.remote && slot.check.type !== 'heartbeat';

/**
 * Which of the instances sharing a database offers a slot's runs as they fall due
 * (the others offer them only later, in case it is gone): rendezvous hashing over
 * their ids, so each has an even share, and one joining or leaving moves only the
 * slots it takes or gives up.
 */
export function ownerOf(key: string, instances: readonly string[]): string | undefined {
  let owner: string | undefined;
  let top = -1;
  for (const id of instances) {
    const weight = fnv1a(`${id}\u0000${key}`);
    if (weight > top) [owner, top] = [id, weight];
  }
  return owner;
}

/** 32-bit FNV-1a with murmur3's finalizer, so every bit counts in a comparison: cheap and even. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Every slot the config schedules: enabled, runnable checks × their locations (heartbeats are not run). */
export function planSlots(config: ServiceConfig): Slot[] {
  const slots: Slot[] = [];
  for (const account of config.accounts) {
    for (const check of account.checks) {
      // A heartbeat runs when its job signals; its silence is judged by heartbeats/watch.ts.
      if (!check.enabled || !isRunnable(check) || check.type === 'heartbeat') continue;
      const periodMs = frequencyToMs(check.frequency);
      for (const location of account.locations) {
        if (!check.locations.includes(location.id)) continue;
        const phase = slotPhase(account.id, check.id, location.id);
        slots.push({
          key: slotKey(account.id, check.id, location.id),
          account,
          check,
          location,
          periodMs,
          phase,
          offsetMs: phaseOffsetMs(phase, periodMs),
        });
      }
    }
  }
  return slots;
}
