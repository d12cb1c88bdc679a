// Which component draws which view (the keys each listens to: ../scopes.ts).
import type { ReactNode } from 'react';
import type { ViewName } from '../../store/types.js';
import { ACCOUNT_ONLY } from '../scopes.js';
import { BoardView } from './board/board-view.js';
import { ChannelFormView } from './channel-form/channel-form-view.js';
import { ChannelsView } from './channels/channels-view.js';
import { CheckDetailView } from './check-detail/check-detail-view.js';
import { DashboardView } from './dashboard/dashboard-view.js';
import { DashboardsView } from './dashboards/dashboards-view.js';
import { LocationsView } from './locations/locations-view.js';
import { MaintenanceView } from './maintenance/maintenance-view.js';
import { MetricsView } from './metrics/metrics-view.js';
import { NeedsAccountView } from './needs-account/needs-account-view.js';
import { ResultDetailView } from './result-detail/result-detail-view.js';
import type { ViewProps } from './view-props.js';
import { WallView } from './wall/wall-view.js';

export type { ViewProps } from './view-props.js';

type Render<N extends ViewName> = (props: ViewProps<N>) => ReactNode;

/** Which component draws each view. */
const VIEWS: { [N in ViewName]: Render<N> } = {
  board: ({ store, height }) => <BoardView store={store} height={height} />,
  check: (p) => <CheckDetailView {...p} />,
  result: (p) => <ResultDetailView {...p} />,
  metrics: (p) => <MetricsView {...p} />,
  dashboards: (p) => <DashboardsView {...p} />,
  dashboard: (p) => <DashboardView {...p} />,
  channels: (p) => <ChannelsView {...p} />,
  'channel-form': (p) => <ChannelFormView {...p} />,
  wall: (p) => <WallView {...p} />,
  maintenance: (p) => <MaintenanceView {...p} />,
  locations: (p) => <LocationsView {...p} />,
};

/** What a view that needs the account's credentials cannot show on a public dashboard. */
const NEEDS_ACCOUNT: Partial<Record<ViewName, string>> = {
  check: 'check results',
  result: 'check results',
  metrics: 'the metric catalogue',
  dashboards: 'the account’s other dashboards',
  channels: 'alert channels',
  'channel-form': 'alert channels',
  maintenance: 'maintenance windows',
};

export function renderView(props: ViewProps): ReactNode {
  const { view, store, height } = props;
  if (store.getState().session.isPublic && ACCOUNT_ONLY.has(view.name))
    return <NeedsAccountView what={NEEDS_ACCOUNT[view.name] ?? 'this'} height={height} />;
  // The map pairs each name with its own view's component; TypeScript cannot follow that through the union.
  return (VIEWS[view.name] as Render<ViewName>)(props);
}
