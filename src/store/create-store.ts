// The console's one store: vanilla zustand, composed of slices, tested without
// React. A new capability adds a slice file and one line below.
import { createStore, type StoreApi } from 'zustand/vanilla';
import { createAlertsSlice, type AlertsSlice } from './alerts-slice.js';
import { createBoardSlice, type BoardSlice } from './board-slice.js';
import { createChannelsSlice, type ChannelsSlice } from './channels-slice.js';
import { createCheckActionsSlice, type CheckActionsSlice } from './check-actions-slice.js';
import { createCheckRecordSlice, type CheckRecordSlice } from './check-record-slice.js';
import { createDashboardsSlice, type DashboardsSlice } from './dashboards-slice.js';
import { createConnectionSlice, type ConnectionSlice } from './connection-slice.js';
import { createDetailSlice, type DetailSlice } from './detail-slice.js';
import { createMeSlice, type MeSlice } from './me-slice.js';
import { createNavSlice, type NavSlice } from './nav-slice.js';
import { createPagedListSlice, type PagedListSlice } from './paged-list.js';
import { createSilenceSlice, type SilenceSlice } from './silence-slice.js';
import { createWindowsSlice, type WindowsSlice } from './windows-slice.js';
import { createScreenshotSlice, type ScreenshotSlice } from './screenshot-slice.js';
import type { BoardMemo } from './selectors.js';
import type { ChartChecksMemo } from './feeds/dashboards-feed.js';
import type { CheckStatus, View } from './types.js';

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

export function createConsoleStore(
  session: Partial<SessionInfo> = {},
  initialView: View = { name: 'board', scope: null },
): ConsoleStore {
  return createStore<ConsoleState>()((...a) => ({
    ...createBoardSlice(...a),
    ...createConnectionSlice(...a),
    ...createNavSlice(initialView)(...a),
    ...createDetailSlice(...a),
    ...createChannelsSlice(...a),
    ...createAlertsSlice(...a),
    ...createDashboardsSlice(...a),
    ...createPagedListSlice(...a),
    ...createScreenshotSlice(...a),
    ...createMeSlice(...a),
    ...createCheckActionsSlice(...a),
    ...createCheckRecordSlice(...a),
    ...createSilenceSlice(...a),
    ...createWindowsSlice(...a),
    session: { ...DEFAULT_SESSION, ...session },
    memos: {},
  }));
}
