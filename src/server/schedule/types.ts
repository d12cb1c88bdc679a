// The scheduler's contract: what it is given (SchedulerOptions) and what it
// offers the rest of the service (Scheduler).
import type { Clock } from '../../domain/clock.js';
import type { ServiceConfig } from '../config/schema.js';
import type { RunContext, RunCheck, RunResult } from '../runners/types.js';
import type { AccountConfig, CheckConfig, LocationConfig } from '../config/schema.js';
import type { ClaimedRun, RunQueue, SkippedRun, StoredRun } from '../storage/types.js';
import type { RunStats } from './run-accounting.js';

export interface SchedulerOptions {
  config: ServiceConfig;
  run: RunCheck;
  /** The shared queue every run goes through (several instances, remote runners). */
  queue: Pick<
    RunQueue,
    'offerRun' | 'claimRuns' | 'instances' | 'withdrawRuns' | 'requestRun' | 'skipStaleRuns'
  >;
  /** A remote location's run this instance offered is due: a runner waiting in a long poll may take it. */
  onRemoteDue?: (run: ClaimedRun) => void;
  /** How often lease-expired local runs are taken over (default 10 s). */
  sweepEveryMs?: number;
  ctx: Omit<RunContext, 'signal'>;
  /** Epoch ms of the latest stored run of a check at a location, or null: a slot never run runs soon. */
  lastRunAt: (accountId: string, checkId: string, locationId: string) => Promise<number | null>;
  /** The service's clock (default: the system's). */
  clock?: Clock | undefined;
  /** How late (ms) each scheduled run started after its due time (the service's /metrics). */
  observeLag?: ((lateMs: number) => void) | undefined;
}

/** Where the runs' outcomes go (storage and the status engine, wired by service.ts). */
export interface RunSink {
  /**
   * Stores the result of a run this instance holds (storage and the status engine
   * live behind it); false when its lease ran out and another holder has it.
   */
  complete: (run: ClaimedRun, result: RunResult) => Promise<boolean>;
  /** A check's first skipped run in the accounting window: its status changes. */
  onSkipping?: ((accountId: string, checkId: string) => void) | undefined;
}

export interface Scheduler {
  /** Starts scheduling; the runs' results and skips go to `sink` (nothing runs before). */
  start(sink: RunSink): void;
  /** Stops scheduling; in-flight runs are aborted and awaited. */
  stop(): Promise<void>;
  /** When the check next runs at any location; null when disabled or not runnable. */
  nextRun(accountId: string, checkId: string): Date | null;
  /** Why the check's status notes skipped runs (some in the last few minutes, run-accounting.ts); undefined when none. */
  skippedReason(accountId: string, checkId: string): string | undefined;
  /**
   * Schedules the new config: slots added, changed (next runs use the new
   * check) or removed; runs in flight finish and are recorded; unchanged slots
   * keep their timers. Resolves once the runs waiting for the slots it removed are
   * withdrawn (a remote run is offered ahead: it must not run after its check went).
   */
  reload(config: ServiceConfig, opts?: { soon?: ReadonlySet<string> }): Promise<void>;
  stats(): RunStats;
  /** Skipped runs since start by reason (run-accounting.ts). */
  skippedByReason(): ReadonlyMap<string, number>;
  /** Runs skipped in the last minute, of every check (the service's health). */
  skippedLastMinute(): number;
  /** Counts runs marked skipped elsewhere (a runner's claim: skipStaleRuns), as this instance's skipped runs. */
  noteSkipped(runs: readonly SkippedRun[]): void;
  /**
   * Runs the check at the location now (docs/actions.md), through the run queue; `skip`
   * records it skipped at once with that reason. Answers the run pending there when
   * there is one (`created` false).
   */
  ask(
    place: { account: AccountConfig; check: CheckConfig; location: LocationConfig },
    triggeredBy: 'api' | 'manual',
    skip?: string,
  ): Promise<{ run: StoredRun; created: boolean }>;
}
