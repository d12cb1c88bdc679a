// The seams between the service's parts: the HTTP side and storage (service.ts,
// routes, storage) on one hand, the scheduler and runners on the other.
import type { CheckResult, Trigger } from '../api/schemas.js';
import type { AccountConfig, CheckConfig, RunLocation, ServiceConfig } from './config-schema.js';
import type { RunStats } from './run-accounting.js';
import type { ClaimedRun, RunQueue } from './storage/types.js';

export interface RunContext {
  /** Epoch ms of the latest heartbeat ping of this check, or null if none yet. */
  lastPingAt(accountId: string, checkId: string): Promise<number | null>;
  /** Response bodies are stored up to this many bytes; `size` keeps the real size. */
  maxStoredBodyBytes: number;
  /** Aborted when the service stops: a runner then returns promptly. */
  signal: AbortSignal;
  now(): number;
}

/**
 * A run's result and what it keeps beside it: the PNG of the page when a
 * browser run failed (or always, when its check asks). The wire result says
 * `hasScreenshot`; the image itself is stored apart and served on its own.
 */
export type RunResult = CheckResult & { screenshot?: Uint8Array | undefined };

/**
 * Runs one check once from one location. Never throws for a failed check: a
 * failure is a result with status "failed" and an `error` (the Gatus habit).
 */
export type RunCheck = (
  // Only the id: a run never needs the account's keys (a runner elsewhere must not see them).
  account: Pick<AccountConfig, 'id'>,
  check: CheckConfig,
  location: RunLocation,
  ctx: RunContext,
  triggeredBy: Trigger,
) => Promise<RunResult>;

export interface SchedulerOptions {
  config: ServiceConfig;
  run: RunCheck;
  /** The shared queue every run goes through (several instances, remote runners). */
  queue: Pick<RunQueue, 'offerRun' | 'claimRuns' | 'instances' | 'withdrawRuns'>;
  /**
   * Stores the result of a run this instance holds (storage and the status engine
   * live behind it); false when its lease ran out and another holder has it.
   */
  complete: (run: ClaimedRun, result: RunResult) => Promise<boolean>;
  /** A remote location's run this instance offered is due: a runner waiting in a long poll may take it. */
  onRemoteDue?: (run: ClaimedRun) => void;
  /** How often lease-expired local runs are taken over (default 10 s). */
  sweepEveryMs?: number;
  ctx: Omit<RunContext, 'signal'>;
  /** Epoch ms of the latest stored run of a check at a location, or null: a slot never run runs soon. */
  lastRunAt: (accountId: string, checkId: string, locationId: string) => Promise<number | null>;
  /** A check's first skipped run in the accounting window: its status changes. */
  onSkipping?: (accountId: string, checkId: string) => void;
}

export interface Scheduler {
  start(): void;
  /** Stops scheduling; in-flight runs are aborted and awaited. */
  stop(): Promise<void>;
  /** When the check next runs at any location; null when disabled or not runnable. */
  nextRun(accountId: string, checkId: string): Date | null;
  /** Skipped runs of the check in the last few minutes (see run-accounting.ts). */
  skippedRecently(accountId: string, checkId: string): number;
  /**
   * Schedules the new config: slots added, changed (next runs use the new
   * check) or removed; runs in flight finish and are recorded; unchanged slots
   * keep their timers. Resolves once the runs waiting for the slots it removed are
   * withdrawn (a remote run is offered ahead: it must not run after its check went).
   */
  reload(config: ServiceConfig): Promise<void>;
  stats(): RunStats;
}
