// Shapes shared by the store's slices.
import type { ApiErrorKind } from '../api/errors.js';

export type ViewName =
  | 'board'
  | 'check'
  | 'result'
  | 'metrics'
  | 'dashboards'
  | 'dashboard'
  | 'channels'
  | 'channel-form'
  | 'wall';
export const VIEW_NAMES: readonly ViewName[] = [
  'board',
  'check',
  'result',
  'metrics',
  'dashboards',
  'dashboard',
  'channels',
  'channel-form',
  'wall',
];

export interface View {
  name: ViewName;
  params: Record<string, string>;
}

export interface ErrorInfo {
  kind: ApiErrorKind | 'unknown';
  message: string;
  status?: number | undefined;
}

/** Remote data: what is on screen stays there when a refresh fails (`data` on error). */
export type Remote<T> =
  | { state: 'idle' }
  | { state: 'loading'; data?: T | undefined }
  | { state: 'ok'; data: T; at: number }
  | { state: 'error'; error: ErrorInfo; data?: T | undefined; at?: number | undefined };

export type Overlay = 'help' | 'prompt' | null;

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
  Assertion,
  CheckResult,
  CheckStatus,
  CheckStatusValue,
  Dashboard,
  MetricDefinition,
  StatusSummary,
  Timing,
  Trend,
  Widget,
} from '../api/schemas.js';

export { CHECK_TYPES, METRIC_CATEGORIES, TRIGGERS } from '../api/schemas.js';
export type {
  CheckResultList,
  DashboardList,
  MetricCatalogue,
  Period,
  ResultsSummary,
} from '../api/schemas.js';
