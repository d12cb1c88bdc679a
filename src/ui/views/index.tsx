// Which component draws which view, and which key scopes it listens to.
import type { ReactNode } from 'react';
import type { ConsoleState } from '../../store/create-store.js';
import type { ViewName } from '../../store/types.js';
import type { Scope } from '../keymap.js';
import { BoardView } from './board/board-view.js';
import { CheckDetailView } from './check-detail/check-detail-view.js';
import { MetricsView } from './metrics/metrics-view.js';
import { PlaceholderView } from './placeholder/placeholder-view.js';
import { ResultDetailView } from './result-detail/result-detail-view.js';
import type { ViewProps } from './view-props.js';
import { WallView } from './wall/wall-view.js';

export type { ViewProps } from './view-props.js';

export interface ViewEntry {
  render(props: ViewProps): ReactNode;
  scopes(state: ConsoleState): Scope[];
}

const placeholder = (title: string): ViewEntry => ({
  render: ({ height }) => <PlaceholderView name={title} height={height} />,
  scopes: () => ['placeholder'],
});

export const VIEWS: Record<ViewName, ViewEntry> = {
  board: {
    render: ({ store, height }) => <BoardView store={store} height={height} />,
    scopes: (s) => (s.filterOpen ? ['filter'] : ['board', 'list']),
  },
  check: { render: (p) => <CheckDetailView {...p} />, scopes: () => ['check', 'list'] },
  result: { render: (p) => <ResultDetailView {...p} />, scopes: () => ['result'] },
  metrics: { render: (p) => <MetricsView {...p} />, scopes: () => ['metrics'] },
  dashboards: placeholder('Dashboards'),
  dashboard: placeholder('Dashboard'),
  channels: placeholder('Alert channels'),
  'channel-form': placeholder('New alert channel'),
  wall: { render: (p) => <WallView {...p} />, scopes: () => ['wall'] },
};
