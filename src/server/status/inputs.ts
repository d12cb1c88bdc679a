// What a check's status is made of, as read from storage: its window's counts,
// each location's recent runs, the newest result, the incident and alert. The
// status engine reads it once per check and then keeps it current from each
// result as it is stored (`applyResult`), locally or on another instance, so
// storing a result costs no reads; status/compute.ts derives the status from it
// at any moment, with no reads either.
//
// A window of up to EXACT_RUNS runs is kept whole, so its figures are exact at
// any moment; a larger one keeps its counts as read plus the runs stored since
// (status/window.ts). A larger window's p95 and the runs leaving it are read
// again every few minutes (`readSlowParts`), with the trend's previous day and
// the alert counts, which only move with time.
import type { CheckResult, CheckStatus, CurrentAlert, Period } from '../../api/schemas/index.js';
import { expiresAt, mayPresentCertificate } from '../../domain/certificate.js';
import { PERIOD_MS } from '../../domain/period.js';
import { JUDGED_RUNS } from '../../domain/status-rules.js';
import type { AccountConfig, CheckConfig } from '../config/schema.js';
import { bucketOf, DAY_MS } from '../storage/history.js';
import { storedResponseTime } from '../storage/rows.js';
import type { AlertCounts, IncidentRow, RecentRun, Storage, WindowStats } from '../storage/types.js';
import { addRun, counted, EXACT_RUNS, type Run, type Window } from './window.js';

/** A larger window's p95 and edge, the previous day and the alert counts are read again this often. */
export const SLOW_REFRESH_MS = 5 * 60_000;
const TREND_WINDOW_MS = PERIOD_MS['24h'];

export interface StatusInputs {
  period: Period;
  /**
   * When to read again what moves only with time (the previous day, alert counts, a large
   * window): spread around SLOW_REFRESH_MS so checks loaded together do not refresh together.
   */
  refreshAt: number;
  window: Window;
  /** The last 24 h for the trend when the period is another one. */
  day: WindowStats | null;
  previous: WindowStats;
  incident: IncidentRow | null;
  /** Per location of the check (in the account's order), newest first, at most JUDGED_RUNS. */
  recent: RecentRun[][];
  lastSuccess: Array<number | null>;
  /** The newest result, as much of it as a status shows (not the whole result: 10,000 of them weigh). */
  latest: Latest | null;
  alerts: AlertCounts;
  alert: CurrentAlert | null;
  /** docs/certificates.md: when the newest result's certificate stops working (its chain's earliest expiry). */
  certificate: { startedAt: number; expiresAt: number } | null;
}

export interface Latest {
  startedAt: number;
  execution: NonNullable<CheckStatus['lastExecution']>;
}

const latestOf = (r: CheckResult): Latest => ({
  startedAt: Date.parse(r.startedAt),
  execution: lastExecution(r),
});

/** The check's locations, in the account's order: the order of `recent` and `lastSuccess`. */
export const checkLocations = (account: AccountConfig, check: CheckConfig) =>
  account.locations.filter((l) => check.locations.includes(l.id));

const refreshAt = (now: number) => now + SLOW_REFRESH_MS * (0.75 + Math.random() * 0.5);

/** Reads everything a status is made of. Only the default period's window is kept run by run. */
export async function loadInputs(
  storage: Storage,
  account: AccountConfig,
  check: CheckConfig,
  period: Period,
  now: number,
  keepRuns: boolean,
  rawMs = Number.POSITIVE_INFINITY,
  /** Runs kept run by run at most (window.ts): more under a window excluding runs. */
  keepUpTo = EXACT_RUNS,
): Promise<StatusInputs> {
  const [a, c] = [account.id, check.id];
  const locations = checkLocations(account, check);
  const [window, slow, incident, recent, latest, alert, lastSuccess, certificate] = await Promise.all([
    readWindow(storage, a, c, PERIOD_MS[period], now, keepRuns, rawMs, keepUpTo),
    readSlow(storage, a, c, period, now),
    storage.currentIncident(a, c),
    Promise.all(locations.map((l) => storage.recentRuns(a, c, l.id, JUDGED_RUNS))),
    storage.latestResult(a, c),
    currentAlert(storage, a, c),
    Promise.all(locations.map((l) => storage.lastSuccess(a, c, l.id))),
    // Only an HTTPS target is shown a certificate: the others cost no read.
    mayPresentCertificate(check) ? storage.latestCertificate(a, c) : null,
  ]);
  return {
    period,
    refreshAt: refreshAt(now),
    window,
    ...slow,
    incident,
    recent,
    latest: latest && latestOf(latest),
    alert,
    lastSuccess,
    certificate: certificate && { startedAt: 0, expiresAt: expiresAt(certificate) },
  };
}

async function readWindow(
  storage: Storage,
  accountId: string,
  checkId: string,
  span: number,
  now: number,
  keepRuns: boolean,
  rawMs: number,
  keepUpTo = EXACT_RUNS,
): Promise<Window> {
  if (span > rawMs) return readLongWindow(storage, accountId, checkId, span, now, rawMs);
  if (keepRuns) {
    const found = await storage.windowRuns(accountId, checkId, now - span, now, keepUpTo + 1);
    if (found.length <= keepUpTo) {
      const runs = found
        .map((r) => ({ startedAt: r.startedAt, ok: r.status === 'success', responseTime: r.responseTime }))
        .reverse();
      return { span, runs, keepUpTo, ...counted(runs) };
    }
  }
  const stats = await storage.windowStats(accountId, checkId, now - span, now);
  return {
    span,
    total: stats.total,
    successes: stats.successes,
    timed: stats.timed,
    sum: (stats.averageResponseTime ?? 0) * stats.timed,
    p95: stats.p95ResponseTime,
  };
}

/**
 * A window longer than the results are kept (docs/status-page.md): the raw results from the
 * first UTC midnight after the retention's cut-off (all of them are there), the
 * daily roll-ups before it, from the day the window starts in (so its first day is
 * whole: the window reaches back to that day's start). Counts and sums are exact;
 * the p95 is the roll-ups' estimate over the whole window (history.ts).
 */
async function readLongWindow(
  storage: Storage,
  accountId: string,
  checkId: string,
  span: number,
  now: number,
  rawMs: number,
): Promise<Window> {
  const boundary = bucketOf(now - rawMs, 'day') + DAY_MS;
  const first = bucketOf(now - span, 'day');
  const [raw, before, whole] = await Promise.all([
    storage.windowStats(accountId, checkId, boundary, now, false),
    storage.historyTotals(accountId, checkId, { from: first, to: boundary - 1, granularity: 'day' }),
    storage.historyTotals(accountId, checkId, { from: first, to: now, granularity: 'day' }),
  ]);
  return {
    span,
    total: raw.total + before.runs,
    successes: raw.successes + before.runs - before.failures,
    timed: raw.timed + before.timed,
    sum: (raw.averageResponseTime ?? 0) * raw.timed + before.responseTimeSum,
    p95: whole.p95ResponseTime,
  };
}

async function readSlow(storage: Storage, a: string, c: string, period: Period, now: number) {
  const [day, previous, alerts] = await Promise.all([
    period === '24h' ? null : storage.windowStats(a, c, now - TREND_WINDOW_MS, now, false),
    storage.windowStats(a, c, now - 2 * TREND_WINDOW_MS, now - TREND_WINDOW_MS - 1, false),
    storage.alertCounts(a, c, now),
  ]);
  return { day, previous, alerts };
}

/** Reads again what moves only with time; the result is merged by `mergeSlow` if nothing moved meanwhile. */
export async function readSlowParts(
  storage: Storage,
  account: AccountConfig,
  check: CheckConfig,
  inputs: StatusInputs,
  now: number,
  rawMs = Number.POSITIVE_INFINITY,
) {
  const [slow, window] = await Promise.all([
    readSlow(storage, account.id, check.id, inputs.period, now),
    inputs.window.runs
      ? undefined
      : readWindow(storage, account.id, check.id, inputs.window.span, now, false, rawMs),
  ]);
  return { slow, window, now };
}

export function mergeSlow(
  inputs: StatusInputs,
  read: Awaited<ReturnType<typeof readSlowParts>>,
): StatusInputs {
  return {
    ...inputs,
    ...read.slow,
    window: read.window ?? inputs.window,
    refreshAt: refreshAt(read.now),
  };
}

/**
 * Adds a stored result to the inputs (in place). False when they already hold it
 * (a result read with them, then heard of again): it is not counted twice.
 */
export function applyResult(
  inputs: StatusInputs,
  locations: ReadonlyArray<{ id: string }>,
  result: CheckResult,
  now: number,
): boolean {
  const run: Run = {
    startedAt: Date.parse(result.startedAt),
    ok: result.status === 'success',
    responseTime: storedResponseTime(result),
  };
  const at = locations.findIndex((l) => l.id === result.location.id);
  const recent = at === -1 ? undefined : inputs.recent[at];
  if (recent?.some((r) => r.startedAt === run.startedAt)) return false;
  if (recent) {
    recent.push({
      startedAt: run.startedAt,
      status: run.ok ? 'success' : 'failed',
      responseTime: run.responseTime,
    });
    recent.sort((x, y) => y.startedAt - x.startedAt);
    recent.length = Math.min(recent.length, JUDGED_RUNS);
    if (run.ok) inputs.lastSuccess[at] = Math.max(inputs.lastSuccess[at] ?? run.startedAt, run.startedAt);
  }
  if (!inputs.latest || run.startedAt >= inputs.latest.startedAt) inputs.latest = latestOf(result);
  if (result.certificate && run.startedAt >= (inputs.certificate?.startedAt ?? 0))
    inputs.certificate = { startedAt: run.startedAt, expiresAt: expiresAt(result.certificate) };
  addRun(inputs.window, run, now);
  return true;
}

async function currentAlert(
  storage: Storage,
  accountId: string,
  checkId: string,
): Promise<CurrentAlert | null> {
  const alert = await storage.openAlert(accountId, checkId);
  if (!alert) return null;
  const notices = await storage.alertNotices(alert.id);
  return {
    id: alert.id,
    openedAt: new Date(alert.openedAt).toISOString(),
    acknowledgedAt: alert.acknowledgedAt === null ? null : new Date(alert.acknowledgedAt).toISOString(),
    undelivered: notices.filter((n) => n.status === 'failed').length,
  };
}

function lastExecution(r: CheckResult): NonNullable<CheckStatus['lastExecution']> {
  const out: NonNullable<CheckStatus['lastExecution']> = {
    timestamp: r.startedAt,
    status: r.status,
    responseTime: r.response?.responseTime ?? r.duration,
    location: r.location.id,
  };
  const failedAssertion = r.assertions.find((a) => !a.passed);
  if (r.error) out.error = `${r.error.name}: ${r.error.message}`;
  else if (failedAssertion)
    out.error =
      `assertion ${failedAssertion.source} ${failedAssertion.property} expected ${failedAssertion.target}, got ${failedAssertion.actual ?? ''}`.replace(
        /\s+/g,
        ' ',
      );
  return out;
}
