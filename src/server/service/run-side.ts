// Where runs come from: the local runner and the scheduler, and the remote runners' hub.
// Built before the status side, which reads it (next runs, skips, runner contacts); it
// reaches the statuses only through the sink given to scheduler.start and the listeners
// of `runnersBack`.
import { createListeners, type Listeners } from '../../domain/listeners.js';
import { createHeartbeatJudge, type HeartbeatJudge } from '../heartbeats/judge.js';
import { createRunner } from '../runners/index.js';
import { createRunnerHub, type RunnerHub } from '../schedule/runner-hub.js';
import { createScheduler } from '../schedule/scheduler.js';
import type { Scheduler } from '../schedule/types.js';
import type { Base } from './base.js';
import type { Closers } from './closers.js';
import type { Holds } from './holds.js';

export interface RunSide {
  hub: RunnerHub;
  runner: ReturnType<typeof createRunner>;
  scheduler: Scheduler;
  /** A location's runners came back after a silence (the status side listens). */
  runnersBack: Listeners<[]>;
  /** What is known of each heartbeat between its job's signals (heartbeats/judge.ts). */
  heartbeats: HeartbeatJudge;
}

export function createRunSide(
  { opts, clock, storage, live, metrics }: Base,
  holds: Holds,
  closers: Closers,
): RunSide {
  const runnersBack = createListeners<[]>();
  const config = live.config;
  const hub = createRunnerHub({
    config,
    queue: storage,
    now: clock.now,
    clock,
    onReturn: () => void runnersBack.emit(),
  });
  const runner = createRunner({
    maxConcurrentBrowserRuns: config.maxConcurrentBrowserRuns,
    ...(opts.workers ? { workers: opts.workers } : {}),
  });
  closers.add('the runners', () => runner.close());
  const scheduler = createScheduler({
    config: holds.scheduled(config),
    run: runner.run,
    queue: storage,
    onRemoteDue: (run) => hub.wake(run.accountId, run.locationId),
    ...(opts.sweepEveryMs ? { sweepEveryMs: opts.sweepEveryMs } : {}),
    ctx: {
      // Read at each run (the scheduler spreads this object), so a reload applies to the next one.
      get maxStoredBodyBytes() {
        return live.config.maxStoredBodyBytes;
      },
      now: clock.now,
    },
    lastRunAt: async (a, c, l) => (await storage.recentRuns(a, c, l, 1))[0]?.startedAt ?? null,
    clock,
    observeLag: metrics.scheduleLag,
  });
  return { hub, runner, scheduler, runnersBack, heartbeats: createHeartbeatJudge(clock.now) };
}
