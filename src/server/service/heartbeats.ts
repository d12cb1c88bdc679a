// Heartbeats (docs/service.md, "Heartbeats"): a job's signals, stored as runs and
// judged like any result, and the watch storing a run for each silence. Built after
// the status side, whose two ways of storing a result they use.
import { createHeartbeatSignals, type HeartbeatSignals } from '../heartbeats/signals.js';
import { createHeartbeatWatch, type HeartbeatWatch } from '../heartbeats/watch.js';
import type { Base } from './base.js';
import type { Holds } from './holds.js';
import type { RunSide } from './run-side.js';
import type { StatusSide } from './status-side.js';

export interface Heartbeats {
  signals: HeartbeatSignals;
  watch: HeartbeatWatch;
}

export function createHeartbeats(
  { clock, storage, live, log }: Base,
  holds: Holds,
  run: RunSide,
  status: StatusSide,
): Heartbeats {
  const judge = run.heartbeats;
  const signals = createHeartbeatSignals({
    now: clock.now,
    judge,
    recordPing: (a, c, at) => storage.recordPing(a, c, at),
    runs: storage,
    record: status.record,
    maxStoredBodyBytes: () => live.config.maxStoredBodyBytes,
  });
  const watch = createHeartbeatWatch({
    clock,
    judge,
    config: () => holds.scheduled(live.config),
    storage,
    complete: status.complete,
    log,
  });
  return { signals, watch };
}
