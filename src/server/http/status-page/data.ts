// What the status page shows, gathered once per request: the dashboard's checks
// through the public projection (never the internal status), their daily
// roll-ups for the 90-day bars, the last 14 days of incidents (titled as the
// projection titles them), the hourly or daily series of the charts and the
// maintenance windows over its checks (active, or starting within 7 days).
import type { CheckResult, Dashboard, PublicCheckStatus } from '../../../api/schemas/index.js';
import { occurrenceAt } from '../../../domain/maintenance.js';
import { dashboardCheckIds } from '../../config/accounts.js';
import type { AccountConfig } from '../../config/schema.js';
import { covers, type Maintenance } from '../../maintenance/windows.js';
import type { StatusEngine } from '../../status/engine.js';
import {
  bucketOf,
  DAY_MS,
  HOUR_MS,
  SPAN_MS,
  type Granularity,
  type HistoryBucket,
} from '../../storage/history.js';
import type { Storage } from '../../storage/types.js';
import { PUBLIC_RECENT_RESULTS, publicCheckStatus } from '../public-projection.js';

export const BAR_DAYS = 90;
export const INCIDENT_DAYS = 14;
/** How far ahead a scheduled maintenance window is shown. */
export const MAINTENANCE_AHEAD_MS = 7 * DAY_MS;

export interface DataDeps {
  storage: Storage;
  engine: StatusEngine;
  now: () => number;
  /** The maintenance windows (docs/maintenance.md): only their list is read; without it the page shows none. */
  maintenance?: Pick<Maintenance, 'all'> | undefined;
}

/**
 * A maintenance window as the public page and read show it: its name, the times of
 * its current (or next) occurrence and the dashboard's checks it covers; never its
 * reason, id, author or scope (they are internal).
 */
export interface PublicWindow {
  name: string;
  startsAt: number;
  endsAt: number;
  state: 'active' | 'scheduled';
  /** The dashboard's checks it covers, in the account's order. */
  checkIds: string[];
}

/** One UTC day of a check's bar: null availability when nothing ran. */
export interface DayCell {
  start: number;
  runs: number;
  failures: number;
  availability: number | null;
}

export interface PageIncident {
  id: string;
  checkId: string;
  title: string;
  severity: string;
  startedAt: number;
  endedAt: number | null;
}

export interface ChartPoint {
  start: number;
  value: number | null;
}

export interface PageData {
  dashboard: Dashboard;
  checks: PublicCheckStatus[];
  days: Map<string, DayCell[]>;
  incidents: PageIncident[];
  /** Per widget index, the series of a metrics_chart the page can draw. */
  charts: Map<number, ChartPoint[]>;
  maintenance: PublicWindow[];
  now: number;
}

/** A check's newest results for the public read, newest first (when the dashboard shows them). */
export type RecentResults = (checkId: string) => Promise<readonly CheckResult[]>;

/** The newest results of a check as stored: one read of storage per check. */
export const storedRecent =
  (deps: DataDeps, account: AccountConfig): RecentResults =>
  async (checkId) =>
    (
      await deps.storage.queryResults({
        accountId: account.id,
        checkId,
        from: 0,
        to: deps.now(),
        sortBy: 'startedAt',
        sortOrder: 'desc',
        offset: 0,
        limit: PUBLIC_RECENT_RESULTS,
      })
    ).items;

/** The checks of a dashboard as the public read shows them (GET /v1/public/dashboards and the page). */
export async function publicChecks(
  deps: DataDeps,
  account: AccountConfig,
  dashboard: Dashboard,
  recent: RecentResults = storedRecent(deps, account),
): Promise<PublicCheckStatus[]> {
  const { engine } = deps;
  const shown = dashboardCheckIds(account, dashboard);
  const all = await engine.list(account, '24h');
  return Promise.all(
    all
      .filter((s) => shown.has(s.checkId))
      .map((s) => engine.present(account.id, s))
      .map(async (s) =>
        publicCheckStatus(
          s,
          dashboard.configuration,
          dashboard.configuration.showCheckResults ? await recent(s.checkId) : [],
        ),
      ),
  );
}

/**
 * The windows over at least one of the dashboard's checks that are active now or
 * start within MAINTENANCE_AHEAD_MS: the active first, then by start. A recurring
 * window is one entry, its current or next occurrence. Read from the windows in
 * memory (no storage read), so it is as fresh as the statuses.
 */
export function publicMaintenance(
  deps: DataDeps,
  account: AccountConfig,
  dashboard: Dashboard,
): PublicWindow[] {
  if (!deps.maintenance) return [];
  const now = deps.now();
  const shown = dashboardCheckIds(account, dashboard);
  const checks = account.checks.filter((c) => shown.has(c.id));
  const out: PublicWindow[] = [];
  for (const { window } of deps.maintenance.all(account.id)) {
    const { state, occurrence } = occurrenceAt(window, now);
    if (state === 'ended' || !occurrence) continue;
    if (state === 'scheduled' && occurrence.startsAt > now + MAINTENANCE_AHEAD_MS) continue;
    const checkIds = checks.filter((c) => covers(window, account, c)).map((c) => c.id);
    if (checkIds.length === 0) continue;
    out.push({
      name: window.name,
      startsAt: occurrence.startsAt,
      endsAt: occurrence.endsAt,
      state,
      checkIds,
    });
  }
  return out.sort(
    (a, b) =>
      (a.state === 'active' ? 0 : 1) - (b.state === 'active' ? 0 : 1) ||
      a.startsAt - b.startsAt ||
      a.name.localeCompare(b.name),
  );
}

/** One check of a dashboard as the public read shows it, without its recent results (a badge). */
export async function publicCheck(
  deps: DataDeps,
  account: AccountConfig,
  dashboard: Dashboard,
  checkId: string,
): Promise<PublicCheckStatus | undefined> {
  const check = account.checks.find((c) => c.id === checkId);
  if (!check || !dashboardCheckIds(account, dashboard).has(checkId)) return undefined;
  return publicCheckStatus(await deps.engine.statusOf(account, check), dashboard.configuration, []);
}

/** The metrics a chart can draw from the roll-ups, and their labels. */
export const CHART_METRICS: Record<string, { label: string; unit: string }> = {
  averageResponseTime: { label: 'Average response time', unit: 'ms' },
  p95ResponseTime: { label: 'p95 response time', unit: 'ms' },
  successRate: { label: 'Success rate', unit: '%' },
  errorRate: { label: 'Error rate', unit: '%' },
  runs: { label: 'Runs', unit: '' },
};

/** A chart's time range: its span and the roll-up it is drawn from. */
export const CHART_RANGES: Record<string, { span: number; granularity: Granularity }> = {
  '1h': { span: HOUR_MS, granularity: 'hour' },
  '6h': { span: 6 * HOUR_MS, granularity: 'hour' },
  '24h': { span: DAY_MS, granularity: 'hour' },
  '7d': { span: 7 * DAY_MS, granularity: 'hour' },
  '30d': { span: 30 * DAY_MS, granularity: 'day' },
  '90d': { span: 90 * DAY_MS, granularity: 'day' },
};

export function chartRange(widget: Dashboard['widgets'][number]) {
  const asked = widget.settings['timeRange'];
  const key = typeof asked === 'string' && asked in CHART_RANGES ? asked : '24h';
  return { key, ...CHART_RANGES[key]! };
}

/** The parts of a page read from the roll-ups and incidents: they move by the minute, not the request. */
export interface PageHistory {
  /** Each check's newest results (the page's row of recent marks), when the dashboard shows them. */
  recent: Map<string, readonly CheckResult[]>;
  days: Map<string, DayCell[]>;
  incidents: PageIncident[];
  charts: Map<number, ChartPoint[]>;
}

/** How long a page's history is served as it is, and after that while it is read again. */
export const HISTORY_FRESH_MS = 30_000;
const HISTORY_MAX_AGE_MS = 5 * HISTORY_FRESH_MS;
const HISTORY_KEPT = 1_000;

export type PageHistoryKeeper = (
  deps: DataDeps,
  account: AccountConfig,
  dashboard: Dashboard,
  checkIds: readonly string[],
) => Promise<PageHistory>;

/**
 * Keeps each dashboard's page history (its 90-day bars, incidents and charts: a
 * read of the roll-ups per check) for HISTORY_FRESH_MS, then serves it while one
 * read of it runs again, up to HISTORY_MAX_AGE_MS; the statuses on the page are
 * always the status cache's of the moment. A page of 200 checks is then one
 * render, not 600 storage reads, for every visitor (BENCHMARKS.md, status page).
 */
export function createPageHistory(now: () => number): PageHistoryKeeper {
  const kept = new Map<string, { at: number; value: Promise<PageHistory>; refreshing: boolean }>();
  const keep = (key: string, value: Promise<PageHistory>) => {
    kept.delete(key);
    if (kept.size >= HISTORY_KEPT) kept.delete(kept.keys().next().value!);
    const entry = { at: now(), value, refreshing: false };
    kept.set(key, entry);
    // A failed read is not kept: the next request reads again.
    value.catch(() => kept.get(key) === entry && kept.delete(key));
  };
  return (deps, account, dashboard, checkIds) => {
    const key = [account.id, dashboard.id, ...checkIds].join('\0');
    const entry = kept.get(key);
    const age = entry ? now() - entry.at : Infinity;
    if (entry && age < HISTORY_FRESH_MS) return entry.value;
    if (entry && age < HISTORY_MAX_AGE_MS) {
      if (!entry.refreshing) {
        entry.refreshing = true;
        const next = gatherHistory(deps, account, dashboard, checkIds);
        next.then(
          () => keep(key, next),
          () => (entry.refreshing = false),
        );
      }
      return entry.value;
    }
    const value = gatherHistory(deps, account, dashboard, checkIds);
    keep(key, value);
    return value;
  };
}

export async function gatherPage(
  deps: DataDeps,
  account: AccountConfig,
  dashboard: Dashboard,
  history: PageHistoryKeeper = gatherHistory,
): Promise<PageData> {
  const now = deps.now();
  const shown = dashboardCheckIds(account, dashboard);
  const ids = account.checks.flatMap((c) => (shown.has(c.id) ? [c.id] : []));
  const { recent, ...kept } = await history(deps, account, dashboard, ids);
  const checks = await publicChecks(deps, account, dashboard, (id) => Promise.resolve(recent.get(id) ?? []));
  return { dashboard, checks, ...kept, maintenance: publicMaintenance(deps, account, dashboard), now };
}

async function gatherHistory(
  deps: DataDeps,
  account: AccountConfig,
  dashboard: Dashboard,
  ids: readonly string[],
): Promise<PageHistory> {
  const now = deps.now();
  const recent = new Map<string, readonly CheckResult[]>();
  if (dashboard.configuration.showCheckResults) {
    const read = storedRecent(deps, account);
    await Promise.all(ids.map(async (id) => recent.set(id, await read(id))));
  }
  const today = bucketOf(now, 'day');
  const first = today - (BAR_DAYS - 1) * DAY_MS;
  const days = new Map<string, DayCell[]>();
  await Promise.all(
    ids.map(async (id) => {
      const stored = await deps.storage.history(account.id, id, { from: first, to: now, granularity: 'day' });
      const byStart = new Map(stored.map((b) => [b.start, b]));
      days.set(
        id,
        Array.from({ length: BAR_DAYS }, (_, i) => {
          const start = first + i * DAY_MS;
          const b = byStart.get(start);
          const runs = b?.runs ?? 0;
          const failures = b?.failures ?? 0;
          return {
            start,
            runs,
            failures,
            availability: runs === 0 ? null : ((runs - failures) / runs) * 100,
          };
        }),
      );
    }),
  );

  const incidents: PageIncident[] = [];
  if (dashboard.configuration.showIncidents) {
    const names = new Map(account.checks.map((c) => [c.id, c.name]));
    const rows = await Promise.all(
      ids.map((id) => deps.storage.incidents(account.id, id, now - INCIDENT_DAYS * DAY_MS, now)),
    );
    for (const row of rows.flat())
      incidents.push({
        id: row.id,
        checkId: row.checkId,
        // Generic, as the public projection titles them: the internal title quotes the failure.
        title: `${names.get(row.checkId) ?? row.checkId}: ${row.severity === 'critical' ? 'outage' : 'degraded performance'}`,
        severity: row.severity,
        startedAt: row.startedAt,
        endedAt: row.endedAt,
      });
    incidents.sort((a, b) => b.startedAt - a.startedAt);
  }

  const charts = new Map<number, ChartPoint[]>();
  await Promise.all(
    dashboard.widgets.map(async (widget, index) => {
      const metric = widget.type === 'metrics_chart' ? widget.settings['metric'] : undefined;
      if (typeof metric !== 'string' || !Object.hasOwn(CHART_METRICS, metric)) return;
      const range = chartRange(widget);
      const span = SPAN_MS[range.granularity];
      const count = Math.max(1, Math.round(range.span / span));
      const from = bucketOf(now, range.granularity) - (count - 1) * span;
      const perCheck = await Promise.all(
        ids.map((id) =>
          deps.storage.history(account.id, id, { from, to: now, granularity: range.granularity }),
        ),
      );
      const byStart = new Map<number, HistoryBucket[]>();
      for (const b of perCheck.flat()) byStart.set(b.start, [...(byStart.get(b.start) ?? []), b]);
      charts.set(
        index,
        Array.from({ length: count }, (_, i) => {
          const start = from + i * span;
          return { start, value: metricOf(metric, byStart.get(start) ?? []) };
        }),
      );
    }),
  );
  return { recent, days, incidents, charts };
}

/** A metric over the dashboard's checks in one bucket; the p95 is the slowest check's (p95s do not add up). */
function metricOf(metric: string, buckets: readonly HistoryBucket[]): number | null {
  const runs = buckets.reduce((n, b) => n + b.runs, 0);
  const failures = buckets.reduce((n, b) => n + b.failures, 0);
  const timed = buckets.reduce((n, b) => n + b.timed, 0);
  const sum = buckets.reduce((n, b) => n + b.responseTimeSum, 0);
  switch (metric) {
    case 'runs':
      return runs;
    case 'successRate':
      return runs === 0 ? null : ((runs - failures) / runs) * 100;
    case 'errorRate':
      return runs === 0 ? null : (failures / runs) * 100;
    case 'averageResponseTime':
      return timed === 0 ? null : sum / timed;
    case 'p95ResponseTime': {
      const p95s = buckets.flatMap((b) => (b.p95ResponseTime === null ? [] : [b.p95ResponseTime]));
      return p95s.length === 0 ? null : Math.max(...p95s);
    }
    default:
      return null;
  }
}
