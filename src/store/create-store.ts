// The console's one store: vanilla zustand, composed of slices, tested without
// React. A new capability adds a slice file, its type to state.ts and one line below.
import { createStore } from 'zustand/vanilla';
import { createAlertsSlice } from './alerts-slice.js';
import { createBoardSlice } from './board-slice.js';
import { createChannelsSlice } from './channels-slice.js';
import { createCheckActionsSlice } from './check-actions-slice.js';
import { createCheckRecordSlice } from './check-record-slice.js';
import { createDashboardsSlice } from './dashboards-slice.js';
import { createConnectionSlice } from './connection-slice.js';
import { createDetailSlice } from './detail-slice.js';
import { createMeSlice } from './me-slice.js';
import { createNavSlice } from './nav-slice.js';
import { createPagedListSlice } from './paged-list.js';
import { createSilenceSlice } from './silence-slice.js';
import { createWindowsSlice } from './windows-slice.js';
import { createScreenshotSlice } from './screenshot-slice.js';
import { createHandsSlice } from './hands-slice.js';
import { DEFAULT_SESSION, type ConsoleState, type ConsoleStore, type SessionInfo } from './state.js';
import type { View } from './types.js';

export {
  DEFAULT_SESSION,
  type ConsoleState,
  type ConsoleStore,
  type Memos,
  type SessionInfo,
} from './state.js';

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
    ...createHandsSlice(...a),
    session: { ...DEFAULT_SESSION, ...session },
    memos: {},
  }));
}
