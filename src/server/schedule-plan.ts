// Where in its period each check × location runs: pure, so it is tested
// without timers. A slot's offset is a hash of its own ids scaled to its
// period and anchored to the epoch, so
// - runs spread evenly: 10,000 checks at 60 s are ~167 runs every second, not bursts;
// - a restart keeps every offset (same ids, same period, same instants);
// - adding a check places it without moving any other (nothing depends on the others).
import { createHash } from 'node:crypto';
import { frequencyToMs, type AccountConfig, type CheckConfig, type LocationConfig } from './config-schema.js';
import { isRunnable } from './runners/index.js';
import type { ServiceConfig } from './config-schema.js';

export interface Slot {
  key: string;
  account: AccountConfig;
  check: CheckConfig;
  location: LocationConfig;
  periodMs: number;
  offsetMs: number;
}

/** A number in [0, periodMs) from the ids alone. */
export function slotOffsetMs(
  accountId: string,
  checkId: string,
  locationId: string,
  periodMs: number,
): number {
  const digest = createHash('sha256').update(`${accountId}\u0000${checkId}\u0000${locationId}`).digest();
  // 48 bits: uniform, and exact in a double.
  return Math.floor((digest.readUIntBE(0, 6) / 2 ** 48) * periodMs);
}

/** The first instant at or after `at` that is `offsetMs` into a period (periods start at the epoch). */
export function nextDueAt(at: number, periodMs: number, offsetMs: number): number {
  const base = Math.floor((at - offsetMs) / periodMs) * periodMs + offsetMs;
  return base >= at ? base : base + periodMs;
}

export const slotKey = (accountId: string, checkId: string, locationId: string) =>
  `${accountId}\u0000${checkId}\u0000${locationId}`;

/** Every slot the config schedules: enabled, runnable checks × their locations. */
export function planSlots(config: ServiceConfig): Slot[] {
  const slots: Slot[] = [];
  for (const account of config.accounts) {
    for (const check of account.checks) {
      if (!check.enabled || !isRunnable(check)) continue;
      const periodMs = frequencyToMs(check.frequency);
      for (const location of account.locations) {
        if (!check.locations.includes(location.id)) continue;
        slots.push({
          key: slotKey(account.id, check.id, location.id),
          account,
          check,
          location,
          periodMs,
          offsetMs: slotOffsetMs(account.id, check.id, location.id, periodMs),
        });
      }
    }
  }
  return slots;
}
