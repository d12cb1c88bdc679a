// The console's state as one type: the slices it is composed of, the session and the
// memos. Types only (and the session's defaults), so a slice that needs the whole state's
// type imports it from here, not from the store that composes the slices' code.
import type { StoreApi } from 'zustand/vanilla';
import type { AlertsSlice } from './alerts-slice.js';
import type { BoardSlice } from './board-slice.js';
import type { ChannelsSlice } from './channels-slice.js';
import type { CheckActionsSlice } from './check-actions-slice.js';
import type { CheckRecordSlice } from './check-record-slice.js';
import type { DashboardsSlice } from './dashboards-slice.js';
import type { ConnectionSlice } from './connection-slice.js';
import type { DetailSlice } from './detail-slice.js';
import type { MeSlice } from './me-slice.js';
import type { NavSlice } from './nav-slice.js';
import type { PagedListSlice } from './paged-list.js';
import type { SilenceSlice } from './silence-slice.js';
import type { WindowsSlice } from './windows-slice.js';
import type { ScreenshotSlice } from './screenshot-slice.js';
import type { BoardMemo } from './selectors.js';
import type { ChartChecksMemo } from './feeds/dashboards-feed.js';
import type { CheckStatus } from './types.js';

export interface SessionInfo {
  /** Profile name or account, for the header. */
  label: string;
  /** Service host, for the header. */
  host: string;
  refreshMs: number;
  ascii: boolean;
  color: boolean;
  /** The terminal draws 24-bit colour (COLORTERM); pictures use the 256-colour palette otherwise. */
  truecolor: boolean;
  /** How long the wall shows each page of failing checks. */
  wallCycleMs: number;
  /** Reading one public dashboard without credentials (`--public`). */
  isPublic: boolean;
}

/**
 * Derived values remembered between renders, one set per store: a cache (set
 * in place by the selectors, never through `set`), not state anyone reads.
 */
export interface Memos {
  board?: BoardMemo;
  chartChecks?: ChartChecksMemo;
  firstRuns?: { checks: Record<string, CheckStatus>; value: number };
}

export type ConsoleState = BoardSlice &
  ConnectionSlice &
  NavSlice &
  DetailSlice &
  ChannelsSlice &
  AlertsSlice &
  DashboardsSlice &
  PagedListSlice &
  ScreenshotSlice &
  MeSlice &
  CheckActionsSlice &
  CheckRecordSlice &
  SilenceSlice &
  WindowsSlice & { session: SessionInfo; memos: Memos };
export type ConsoleStore = StoreApi<ConsoleState>;

export const DEFAULT_SESSION: SessionInfo = {
  label: '',
  host: '',
  refreshMs: 10_000,
  ascii: false,
  color: true,
  truecolor: false,
  wallCycleMs: 8_000,
  isPublic: false,
};
