// The runners' contract: what one run is given (RunContext) and gives back
// (RunResult), whether it runs in this service or in a remote runner.
import type { CheckResult, Trigger } from '../../api/schemas/index.js';
import type { AccountConfig, CheckConfig, RunLocation } from '../config/schema.js';
import type { Lookup } from './resolve.js';

export interface RunContext {
  /** Response bodies are stored up to this many bytes; `size` keeps the real size. */
  maxStoredBodyBytes: number;
  /** Aborted when the service stops: a runner then returns promptly. */
  signal: AbortSignal;
  now(): number;
  /** Host names to addresses; the system's resolver when absent (tests give one that fails or never answers). */
  lookup?: Lookup | undefined;
  /**
   * PEM certificates an HTTPS run trusts instead of the system's roots. Internal for
   * now (tests' own CAs); the config's tls.ca will set it (runners/http-options.ts).
   */
  ca?: string | undefined;
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
