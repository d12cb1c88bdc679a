// Which component draws which view, and which key scopes it listens to.
import type { ReactNode } from 'react';
import type { ConsoleState, ConsoleStore } from '../../store/create-store.js';
import type { View, ViewName } from '../../store/types.js';
import type { Scope } from '../keymap.js';
import { BoardView } from './board/board-view.js';
import { PlaceholderView } from './placeholder/placeholder-view.js';

export interface ViewProps {
  store: ConsoleStore;
  view: View;
  height: number;
}

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
  check: placeholder('Check detail'),
  result: placeholder('Result detail'),
  metrics: placeholder('Metric catalogue'),
  dashboards: placeholder('Dashboards'),
  dashboard: placeholder('Dashboard'),
  channels: placeholder('Alert channels'),
  'channel-form': placeholder('New alert channel'),
  wall: placeholder('Wall'),
};
