// The seams between the service's parts: the HTTP side and storage (service.ts,
// routes, storage) on one hand, the scheduler and runners on the other.
import type { CheckResult, Trigger } from '../api/schemas.js';
import type { AccountConfig, CheckConfig, LocationConfig, ServiceConfig } from './config-schema.js';

export interface RunContext {
  /** Epoch ms of the latest heartbeat ping of this check, or null if none yet. */
  lastPingAt(accountId: string, checkId: string): number | null;
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
  account: AccountConfig,
  check: CheckConfig,
  location: LocationConfig,
  ctx: RunContext,
  triggeredBy: Trigger,
) => Promise<RunResult>;

export interface SchedulerOptions {
  config: ServiceConfig;
  run: RunCheck;
  /** Called with every finished result; storage and the status engine live behind it. */
  record: (accountId: string, result: RunResult) => void;
  ctx: Omit<RunContext, 'signal'>;
}

export interface Scheduler {
  start(): void;
  /** Stops scheduling; in-flight runs are aborted and awaited. */
  stop(): Promise<void>;
  /** When the check next runs at any location; null when disabled or not runnable. */
  nextRun(accountId: string, checkId: string): Date | null;
}
