// Inputs and outputs of the status rules (spec section 3). The rules themselves
// live in status-rules.ts; the service's status engine gathers these inputs from
// storage and calls them.
import type { CheckStatusValue, ResultStatus, Trend } from '../api/schemas/index.js';

/** One execution, as the rules need it. */
export interface RunSample {
  startedAt: number; // epoch ms
  status: ResultStatus;
  responseTime: number | null; // ms; null when no response arrived
}

/** Per check; judged against the mean response time of a location's newest runs. */
export interface StatusThresholds {
  /** Above this many ms a location is degraded. */
  degradedMs?: number | undefined;
  /** Above this many ms a location is failing, even if its runs passed. */
  failingMs?: number | undefined;
  /** The newest runs that, all failed, fail a location: 2, or 1 for a heartbeat (one run is one job). */
  failingRuns?: 1 | 2 | undefined;
}

export interface LocationInput {
  id: string;
  /** The most recent executions at this location, newest first (the newest 3 are judged). */
  recent: RunSample[];
  /**
   * A remote location none of whose runners has been in touch for 3 x the check's
   * frequency: it is unknown with this reason, whatever its stored runs say.
   */
  noRunner?: string | undefined;
}

export interface StatusInput {
  now: number; // epoch ms
  enabled: boolean;
  /** False for a check that cannot run in this service (a browser check without a browser). */
  runnable: boolean;
  /** Why it cannot run, in one sentence, when `runnable` is false. */
  notRunnableReason?: string | undefined;
  frequencyMs: number;
  thresholds: StatusThresholds;
  /** Percent of successful runs over the availability window, null when it holds none. */
  availability: number | null;
  activeCriticalAlerts: number;
  locations: LocationInput[];
}

export interface StatusDecision {
  status: CheckStatusValue;
  /** One sentence on why, shown by the console. */
  reason: string;
  locations: Array<{ id: string; status: CheckStatusValue }>;
}

export interface WindowFigures {
  averageResponseTime: number | null;
  availability: number | null;
}

export type TrendDecider = (current: WindowFigures, previous: WindowFigures) => Trend;
