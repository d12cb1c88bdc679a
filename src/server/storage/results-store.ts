// The results part of Storage (types.ts): runs' results and what the statuses and
// history read from them, screenshots, heartbeat pings.
import type { CheckResult, ResultCertificate, ResultsSummary } from '../../api/schemas/index.js';
import type { HistoryBucket, HistoryQuery } from './history.js';

export interface ResultQuery {
  accountId: string;
  checkId: string;
  from: number; // epoch ms, inclusive
  to: number; // epoch ms, inclusive
  status?: 'success' | 'failed' | undefined;
  location?: string | undefined;
  triggeredBy?: string | undefined;
  responseTimeMin?: number | undefined;
  responseTimeMax?: number | undefined;
  sortBy: 'startedAt' | 'duration' | 'responseTime';
  sortOrder: 'asc' | 'desc';
  offset: number;
  limit: number;
}

export interface LocationCertificate {
  locationId: string;
  certificate: ResultCertificate;
}

export interface RecentRun {
  startedAt: number;
  status: 'success' | 'failed';
  responseTime: number | null;
}

/** A stored run's figures as the statuses read them, with where it ran. */
export interface WindowRun extends RecentRun {
  locationId: string;
}

export interface WindowStats {
  total: number;
  successes: number;
  /** Runs with a response time: what the average and p95 are over. */
  timed: number;
  averageResponseTime: number | null;
  p95ResponseTime: number | null;
}

/** Runs' results and what is read from them: windows, history, screenshots, heartbeat pings. */
export interface ResultStore {
  insertResult(accountId: string, result: CheckResult): Promise<void>;
  insertResults(accountId: string, results: readonly CheckResult[]): Promise<void>;
  queryResults(q: ResultQuery): Promise<{ items: CheckResult[]; total: number }>;
  summarizeResults(q: ResultQuery): Promise<ResultsSummary>;
  /** Counts, average and (unless `withP95` is false) p95 of the runs in [from, to]. */
  windowStats(
    accountId: string,
    checkId: string,
    from: number,
    to: number,
    withP95?: boolean,
  ): Promise<WindowStats>;
  recentRuns(accountId: string, checkId: string, locationId: string, count: number): Promise<RecentRun[]>;
  /** The runs started in [from, to] at any location, newest first, at most `limit`. */
  windowRuns(
    accountId: string,
    checkId: string,
    from: number,
    to: number,
    limit: number,
  ): Promise<WindowRun[]>;
  /** Failed runs in a row, newest first, at any location, counted up to max. */
  consecutiveFailures(accountId: string, checkId: string, max: number): Promise<number>;
  lastSuccess(accountId: string, checkId: string, locationId: string): Promise<number | null>;
  latestResult(accountId: string, checkId: string): Promise<CheckResult | null>;
  /** The certificate of the newest result that carried one (docs/certificates.md), or null. */
  latestCertificate(accountId: string, checkId: string): Promise<ResultCertificate | null>;
  /**
   * The certificate of each location's newest result that carried one, in the order asked
   * (docs/certificates.md, "The certificate event"); a location that never showed one is left out.
   */
  latestCertificates(
    accountId: string,
    checkId: string,
    locationIds: readonly string[],
  ): Promise<LocationCertificate[]>;

  /**
   * The roll-ups (history.ts) of buckets starting in [from, to], oldest first: one
   * location's, or summed over the check's locations (locationId null). Only buckets with runs.
   */
  history(accountId: string, checkId: string, q: HistoryQuery): Promise<HistoryBucket[]>;
  /** The roll-ups of [from, to] summed into one bucket (starting at `from`). */
  historyTotals(accountId: string, checkId: string, q: HistoryQuery): Promise<HistoryBucket>;

  /** Keeps the PNG of a stored result's page (browser runs); pruned with the result. */
  insertScreenshot(
    accountId: string,
    result: Pick<CheckResult, 'id' | 'checkId' | 'startedAt'>,
    png: Uint8Array,
  ): Promise<void>;
  /** A result's screenshot, or null when it has none (or is not this check's, or this account's). */
  screenshot(accountId: string, checkId: string, resultId: string): Promise<Buffer | null>;

  recordPing(accountId: string, checkId: string, at: number): Promise<void>;
  lastPing(accountId: string, checkId: string): Promise<number | null>;
  /** A heartbeat's runs under way (their /start, by run id) and its /log notes, kept across restarts. */
  heartbeatRuns(accountId: string, checkId: string): Promise<HeartbeatRuns>;
  /** Replaces them; none of either deletes the row. */
  saveHeartbeatRuns(accountId: string, checkId: string, runs: HeartbeatRuns): Promise<void>;
}

/** A heartbeat's state between its signals (heartbeats/judge.ts): starts by run id ('' for none), notes oldest first. */
export interface HeartbeatRuns {
  starts: Record<string, number>;
  notes: string[];
}

export const NO_HEARTBEAT_RUNS: HeartbeatRuns = { starts: {}, notes: [] };

export const isEmptyRuns = (runs: HeartbeatRuns) =>
  Object.keys(runs.starts).length === 0 && runs.notes.length === 0;
