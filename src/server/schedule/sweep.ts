// The sweep: every few seconds this instance takes its share of the local runs whose
// holder stopped reporting (an instance killed mid-run) and runs them here. A scheduled
// run past its period is not started late: it is skipped and counted.
import type { Clock, Timer } from '../../domain/clock.js';
import { slotKey } from '../../domain/keys.js';
import type { AccountConfig, LocationConfig, ServiceConfig } from '../config/schema.js';
import { logFailure } from '../storage/observed.js';
import type { SkippedRun } from '../storage/types.js';
import { jobOf, type LocalRuns } from './local-runs.js';
import { isRemoteSlot } from './plan.js';
import type { Slots } from './slots.js';
import type { SchedulerOptions } from './types.js';

const SWEEP_EVERY_MS = 10_000;
const SWEEP_BATCH = 100;
// A claim by the sweep holds its runs this long: the lease of a run taken over.
const SWEEP_LEASE_MS = 60_000;

export interface Sweep {
  start(): void;
  stop(): void;
}

export function createSweep(deps: {
  clock: Clock;
  queue: SchedulerOptions['queue'];
  everyMs?: number | undefined;
  config: () => ServiceConfig;
  slots: Slots;
  local: LocalRuns;
  /** Counts runs the queue marked skipped. */
  noteSkipped: (runs: readonly SkippedRun[]) => void;
}): Sweep {
  const { clock, queue, slots, local } = deps;
  let timer: Timer | undefined;

  async function sweepLocation(account: AccountConfig, location: LocationConfig) {
    const now = clock.now();
    deps.noteSkipped(await queue.skipStaleRuns(account.id, location.id, now));
    const runs = await queue.claimRuns(
      account.id,
      location.id,
      local.token,
      now,
      SWEEP_LEASE_MS,
      SWEEP_BATCH,
    );
    for (const run of runs) {
      if (run.triggeredBy !== 'schedule') {
        const check = account.checks.find((c) => c.id === run.checkId);
        if (check) local.enqueue({ account, check, location, run });
        continue;
      }
      const state = slots.get(slotKey(run.accountId, run.checkId, run.locationId));
      // A run of a check gone from the config, or one this instance is running still: left to its lease.
      if (state && !state.pending && !isRemoteSlot(state.slot)) {
        state.pending = true;
        local.enqueue(jobOf(state, run));
      }
    }
  }

  async function sweep() {
    for (const account of deps.config().accounts)
      for (const location of account.locations)
        if (!location.remote && !local.stopped()) await sweepLocation(account, location);
  }

  const soon = () => {
    timer = clock
      .setTimeout(() => {
        sweep()
          .catch((error: unknown) => logFailure('checkwall: the run sweep failed', error))
          .finally(() => !local.stopped() && soon());
      }, deps.everyMs ?? SWEEP_EVERY_MS)
      .unref();
  };
  return { start: soon, stop: () => clock.clearTimeout(timer) };
}
