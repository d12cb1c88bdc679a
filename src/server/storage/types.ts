// The storage interface: the only way the service reads or writes what it keeps.
// One implementation today (SQLite); test/server/storage.test.ts is written
// against this interface so a second one would run the same suite.
import type { AlertChannel, AlertChannelCreate, CheckResult, ResultsSummary } from '../../api/schemas.js';

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

export interface RecentRun {
  startedAt: number;
  status: 'success' | 'failed';
  responseTime: number | null;
}

export interface WindowStats {
  total: number;
  successes: number;
  averageResponseTime: number | null;
  p95ResponseTime: number | null;
}

export interface IncidentRow {
  id: string;
  checkId: string;
  severity: string;
  title: string;
  startedAt: number;
  endedAt: number | null;
}

// A type alias, not an interface: it is assigned into the wire's loose objects.
export type AlertCounts = {
  active: number;
  acknowledged: number;
  total24h: number;
};

export type CreateChannelOutcome =
  { ok: true; channel: AlertChannel } | { ok: false; reason: 'limit'; limit: number };

export interface Storage {
  insertResult(accountId: string, result: CheckResult): void;
  insertResults(accountId: string, results: readonly CheckResult[]): void;
  queryResults(q: ResultQuery): { items: CheckResult[]; total: number };
  summarizeResults(q: ResultQuery): ResultsSummary;
  /** Counts, average and (unless `withP95` is false) p95 of the runs in [from, to]. */
  windowStats(accountId: string, checkId: string, from: number, to: number, withP95?: boolean): WindowStats;
  recentRuns(accountId: string, checkId: string, locationId: string, count: number): RecentRun[];
  lastSuccess(accountId: string, checkId: string, locationId: string): number | null;
  latestResult(accountId: string, checkId: string): CheckResult | null;

  /** Keeps the PNG of a stored result's page (browser runs); pruned with the result. */
  insertScreenshot(
    accountId: string,
    result: Pick<CheckResult, 'id' | 'checkId' | 'startedAt'>,
    png: Uint8Array,
  ): void;
  /** A result's screenshot, or null when it has none (or is not this check's, or this account's). */
  screenshot(accountId: string, checkId: string, resultId: string): Buffer | null;

  recordPing(accountId: string, checkId: string, at: number): void;
  lastPing(accountId: string, checkId: string): number | null;

  createChannel(
    accountId: string,
    body: AlertChannelCreate,
    limit: number,
    now: number,
  ): CreateChannelOutcome;
  listChannels(accountId: string, offset: number, limit: number): { items: AlertChannel[]; total: number };
  countChannels(accountId: string): number;

  openIncident(accountId: string, incident: IncidentRow): void;
  closeIncident(accountId: string, checkId: string, at: number): void;
  currentIncident(accountId: string, checkId: string): IncidentRow | null;
  recordAlert(accountId: string, checkId: string, kind: 'failing' | 'recovered', at: number): void;
  alertCounts(accountId: string, checkId: string, now: number): AlertCounts;

  /** Deletes results (and their screenshots), alert events and closed incidents older than the cut-off; returns how many results went. */
  prune(before: number): number;
  close(): void;
}
