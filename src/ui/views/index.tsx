// Which component draws which view, and which key scopes it listens to.
import type { ReactNode } from 'react';
import type { ConsoleState } from '../../store/create-store.js';
import type { ViewName } from '../../store/types.js';
import type { Scope } from '../keymap.js';
import { BoardView } from './board/board-view.js';
import { ChannelFormView } from './channel-form/channel-form-view.js';
import { ChannelsView } from './channels/channels-view.js';
import { CheckDetailView } from './check-detail/check-detail-view.js';
import { DashboardView } from './dashboard/dashboard-view.js';
import { DashboardsView } from './dashboards/dashboards-view.js';
import { MetricsView } from './metrics/metrics-view.js';
import { NeedsAccountView } from './needs-account/needs-account-view.js';
import { ResultDetailView } from './result-detail/result-detail-view.js';
import type { ViewProps } from './view-props.js';
import { WallView } from './wall/wall-view.js';

export type { ViewProps } from './view-props.js';

export interface ViewEntry {
  render(props: ViewProps): ReactNode;
  scopes(state: ConsoleState): Scope[];
}

/** A view that needs the account's credentials; on a public dashboard it says it cannot show `what`. */
const account = (what: string, entry: ViewEntry): ViewEntry => ({
  render: (p) =>
    p.store.getState().session.isPublic ? (
      <NeedsAccountView what={what} height={p.height} />
    ) : (
      entry.render(p)
    ),
  scopes: (s) => (s.session.isPublic ? ['placeholder'] : entry.scopes(s)),
});

const boardScopes = (s: ConsoleState): Scope[] => (s.filterOpen ? ['filter'] : ['board', 'list']);

export const VIEWS: Record<ViewName, ViewEntry> = {
  board: { render: ({ store, height }) => <BoardView store={store} height={height} />, scopes: boardScopes },
  check: account('check results', {
    render: (p) => <CheckDetailView {...p} />,
    scopes: () => ['check', 'list'],
  }),
  result: account('check results', { render: (p) => <ResultDetailView {...p} />, scopes: () => ['result'] }),
  metrics: account('the metric catalogue', {
    render: (p) => <MetricsView {...p} />,
    scopes: () => ['metrics'],
  }),
  dashboards: account('the account’s other dashboards', {
    render: (p) => <DashboardsView {...p} />,
    scopes: (s) => (s.dashboardTagsOpen ? ['filter'] : ['dashboards', 'list']),
  }),
  dashboard: { render: (p) => <DashboardView {...p} />, scopes: boardScopes },
  channels: account('alert channels', {
    render: (p) => <ChannelsView {...p} />,
    scopes: () => ['channels', 'list'],
  }),
  'channel-form': account('alert channels', {
    render: (p) => <ChannelFormView {...p} />,
    scopes: (s) => (s.form.type ? ['form'] : ['form-type']),
  }),
  wall: { render: (p) => <WallView {...p} />, scopes: () => ['wall'] },
};
