// Shapes shared by the store's slices.
import type { ApiErrorKind } from '../api/errors.js';

import type { Dashboard, Period, Trigger } from '../api/schemas/index.js';

/** What the results list of a check shows (sent to the API as its query). */
export interface ResultFilters {
  period: Period;
  status?: 'success' | 'failed' | undefined;
  location?: string | undefined;
  triggeredBy?: Trigger | undefined;
  responseTimeMin?: number | undefined;
  sortBy: 'startedAt' | 'duration' | 'responseTime';
  sortOrder: 'asc' | 'desc';
  page: number;
}

/**
 * Where the console is: one entry per level of the stack, each owning its own
 * state, so a fact has one home (the open check is the check view's `checkId`,
 * its filters and selection live there too, a dashboard's scope lives on the
 * dashboard view and ends with it). Feeds and key scopes read the top view.
 */
export type View =
  /** `scope`: a board opened from `checkwall wall --dashboard` keeps the wall's reach. */
  | { name: 'board'; scope: Scope | null }
  | {
      name: 'check';
      checkId: string;
      filters: ResultFilters;
      selectedResultId: string | null;
      /** Open the latest failed result as soon as it is known (F on the board). */
      openFailed: boolean;
      /** Why F opened the check and not a failed run: it has none to open. */
      notice?: string | undefined;
      /** Every fetched delivery shown, not the few a short terminal has room for (D). */
      allDeliveries?: boolean | undefined;
      /** Select this result once the list has it (the newest of a run now, when all are in). */
      pickResultId?: string | undefined;
    }
  | { name: 'result'; checkId: string; resultId: string; scroll: number }
  /** The catalogue, rated for `checkId` over `filters.period` when a check was picked. */
  | { name: 'metrics'; checkId: string | null; filters: ResultFilters; scroll: number }
  | { name: 'dashboards' }
  /** `dashboard` is null only while a public dashboard's first answer is awaited. */
  | { name: 'dashboard'; dashboard: Dashboard | null; scope: Scope | null }
  | { name: 'channels' }
  | { name: 'channel-form' }
  /** Active and scheduled maintenance windows (docs/maintenance.md). */
  | { name: 'maintenance' }
  /** Each location's checks, runners and outage (docs/console.md). */
  | { name: 'locations' }
  | { name: 'wall'; scope: Scope | null };

export type ViewName = View['name'];
export type ViewOf<N extends ViewName> = Extract<View, { name: N }>;

/**
 * Which input has the keys. `list`: the view's own keys (and the global ones);
 * `filter`: the text filter of the top view (the board's, or the dashboards'
 * tags); `prompt` and `help`: the overlays; `form`: the fields of the form.
 */
export type Focus = 'list' | 'filter' | 'prompt' | 'help' | 'form';

export interface ErrorInfo {
  kind: ApiErrorKind | 'unknown';
  message: string;
  status?: number | undefined;
  /** The service's own reason for a 503 ("the database is unreachable"): its trouble, not ours. */
  service?: string | undefined;
}

/** Remote data: what is on screen stays there when a refresh fails (`data` on error). */
export type Remote<T> =
  | { state: 'idle' }
  | { state: 'loading'; data?: T | undefined }
  | { state: 'ok'; data: T; at: number }
  | { state: 'error'; error: ErrorInfo; data?: T | undefined; at?: number | undefined };

/** A dashboard's reach: its checks, and every check of its groups. */
export interface Scope {
  name: string;
  checkIds: ReadonlySet<string>;
  groupIds: ReadonlySet<string>;
  /** A dashboard's check_list may group its rows by check type. */
  groupByType?: boolean;
}

// The wire types the views need, re-exported so the ui reads them from the store
// (the ui never imports api/: see eslint-boundaries.js).
export type {
  AlertChannel,
  AlertNotification,
  AlertNotificationList,
  Assertion,
  CheckHistoryBucket,
  CheckLink,
  CheckResult,
  CheckStatus,
  CheckStatusValue,
  Dashboard,
  HeldBy,
  LocationOutage,
  MetricDefinition,
  StatusSummary,
  Timing,
  Trend,
  Widget,
} from '../api/schemas/index.js';

export type { MaintenanceWindow } from '../api/schemas/maintenance.js';

export { CHECK_TYPES, METRIC_CATEGORIES, TRIGGERS } from '../api/schemas/index.js';
export type { AuditEvent, CheckRun } from '../api/schemas/actions.js';
export type {
  CheckResultList,
  DashboardList,
  MetricCatalogue,
  Period,
  ResultsSummary,
} from '../api/schemas/index.js';
