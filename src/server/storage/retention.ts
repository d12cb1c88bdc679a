// Retention: what storage keeps and for how long. Results past `retentionDays`, roll-ups
// past `historyDays` (hourly ones past HOURLY_KEPT_MS), and the run queue's rows once no
// lease or late report can need them; each on the service's clock, one prune of a kind
// at a time.
import type { Clock } from '../../domain/clock.js';
import { repeat, type Repeating } from '../../domain/repeat.js';
import { DAY_MS, HOURLY_KEPT_MS } from './history.js';
import { logFailure } from './observed.js';
import type { Storage } from './types.js';

const PRUNE_EVERY_MS = 3_600_000;
// Runs stay in the queue this long after they were due: long past any lease or late report.
const RUNS_KEPT_MS = 3_600_000;
// Often, so that each prune deletes a minute of runs rather than an hour's burst.
const RUNS_PRUNE_EVERY_MS = 60_000;
// A run asked for is read back by id for this long after it finished.
const ASKED_RUNS_KEPT_MS = DAY_MS;

export interface RetentionDays {
  retentionDays: number;
  historyDays: number;
}

export interface Retention {
  /** Prunes once now (what a long stop left behind), then on the clock. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createRetention(deps: {
  storage: Pick<Storage, 'prune' | 'pruneRuns'>;
  clock: Clock;
  /** Read at each prune, so a reload applies to the next one. */
  days: () => RetentionDays;
}): Retention {
  const { storage, clock } = deps;
  const prune = () => {
    const at = clock.now();
    const { retentionDays, historyDays } = deps.days();
    const history = at - historyDays * DAY_MS;
    return storage.prune(at - retentionDays * DAY_MS, {
      before: history,
      hourlyBefore: Math.max(history, at - HOURLY_KEPT_MS),
    });
  };
  const pruneRuns = () => storage.pruneRuns(clock.now() - RUNS_KEPT_MS, clock.now() - ASKED_RUNS_KEPT_MS);
  let jobs: Repeating[] = [];
  return {
    async start() {
      await prune();
      jobs = [
        repeat(clock, PRUNE_EVERY_MS, prune, (e) => logFailure('checkwall: pruning failed', e)),
        repeat(clock, RUNS_PRUNE_EVERY_MS, pruneRuns, (e) => logFailure('checkwall: pruning runs failed', e)),
      ];
    },
    async stop() {
      await Promise.all(jobs.map((job) => job.stop()));
    },
  };
}
