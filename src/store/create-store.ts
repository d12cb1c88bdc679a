// The console's one store: vanilla zustand, composed of slices, tested without
// React. A new capability adds a slice file and one line below.
import { createStore, type StoreApi } from 'zustand/vanilla';
import { createBoardSlice, type BoardSlice } from './board-slice.js';
import { createChannelsSlice, type ChannelsSlice } from './channels-slice.js';
import { createDashboardsSlice, type DashboardsSlice } from './dashboards-slice.js';
import { createConnectionSlice, type ConnectionSlice } from './connection-slice.js';
import { createDetailSlice, type DetailSlice } from './detail-slice.js';
import { createNavSlice, type NavSlice } from './nav-slice.js';
import type { ViewName } from './types.js';

export interface SessionInfo {
  /** Profile name or account, for the header. */
  label: string;
  /** Service host, for the header. */
  host: string;
  refreshMs: number;
  ascii: boolean;
  color: boolean;
  /** How long the wall shows each page of failing checks. */
  wallCycleMs: number;
  /** Reading one public dashboard without credentials (`--public`). */
  isPublic: boolean;
}

export type ConsoleState = BoardSlice &
  ConnectionSlice &
  NavSlice &
  DetailSlice &
  ChannelsSlice &
  DashboardsSlice & { session: SessionInfo };
export type ConsoleStore = StoreApi<ConsoleState>;

export const DEFAULT_SESSION: SessionInfo = {
  label: '',
  host: '',
  refreshMs: 10_000,
  ascii: false,
  color: true,
  wallCycleMs: 8_000,
  isPublic: false,
};

export function createConsoleStore(
  session: Partial<SessionInfo> = {},
  initialView: ViewName = 'board',
): ConsoleStore {
  return createStore<ConsoleState>()((...a) => ({
    ...createBoardSlice(...a),
    ...createConnectionSlice(...a),
    ...createNavSlice(initialView)(...a),
    ...createDetailSlice(...a),
    ...createChannelsSlice(...a),
    ...createDashboardsSlice(...a),
    session: { ...DEFAULT_SESSION, ...session },
  }));
}
