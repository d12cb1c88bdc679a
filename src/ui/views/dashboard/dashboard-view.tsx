// One dashboard: the board scoped to its checks and groups, its name in the
// header with its own counts, and its widgets in position order above the rows.
import { Box, Text } from 'ink';
import { useMemo } from 'react';
import { useStore } from 'zustand';
import { checkListOptions, isKnownWidget, sortedWidgets } from '../../../domain/dashboard-widgets.js';
import { sanitize } from '../../../domain/sanitize.js';
import { summarize } from '../../../domain/summary.js';
import { inScope, selectBoardRows, selectServiceTrouble } from '../../../store/selectors.js';
import { tint, useTheme } from '../../theme.js';
import { ConnectionBanner, LocationBanner, ServiceBanner } from '../board/banner.js';
import { CheckList, FilterLine } from '../board/board-view.js';
import { Header } from '../board/header.js';
import type { ViewProps } from '../view-props.js';
import { AboutLine } from './about-line.js';
import { MetricsChart } from './metrics-chart.js';
import { StatusOverview, UnsupportedWidget } from './widgets.js';

/** Rows kept for the check list however many widgets there are. */
const MIN_LIST = 5;

export function DashboardView({ store, view, height }: ViewProps<'dashboard'>) {
  const theme = useTheme();

  const session = useStore(store, (s) => s.session);
  const cols = useStore(store, (s) => s.cols);
  const checks = useStore(store, (s) => s.checks);
  const { dashboard, scope } = view;
  const rows = useStore(store, selectBoardRows);
  const hasError = useStore(store, (s) => s.lastError !== null);
  const serviceLine = useStore(store, (s) => selectServiceTrouble(s) !== null);
  const outageLine = useStore(store, (s) => s.locationOutages.length > 0);
  const filterShown = useStore(store, (s) => s.focus === 'filter' || s.filterText !== '');
  const summary = useMemo(
    () => summarize(Object.values(checks).filter((c) => inScope(c, scope))),
    [checks, scope],
  );
  if (!dashboard) return <Text color={tint(theme, theme.dim)}>{'  loading the dashboard…'}</Text>;
  const widgets = sortedWidgets(dashboard).filter((w) => w.type !== 'check_list');
  const list = checkListOptions(dashboard);
  const charts = widgets.filter((w) => w.type === 'metrics_chart').length;
  const fixed = widgets.length * 2;
  const chrome =
    2 + 1 + (hasError ? 1 : 0) + (serviceLine ? 1 : 0) + (outageLine ? 1 : 0) + 1 + (filterShown ? 1 : 0);
  // Charts get at most half of the room the other widgets leave, and the rows never fewer than MIN_LIST.
  const room = Math.max(0, height - chrome - fixed);
  const bars = charts
    ? Math.max(0, Math.min(10, Math.floor(Math.min(room / 2, room - MIN_LIST) / charts)))
    : 0;
  const listHeight = Math.max(1, height - chrome - fixed - charts * bars - 1);
  const who = session.isPublic ? 'public' : session.label;
  return (
    <Box flexDirection="column" height={height} overflow="hidden">
      <Header store={store} title={`${who} ${theme.rule} ${dashboard.name}`} summary={summary} />
      <ConnectionBanner store={store} />
      <ServiceBanner store={store} />
      <LocationBanner store={store} />
      <AboutLine dashboard={dashboard} width={cols} baseUrl={session.baseUrl} />
      {widgets.map((w, i) =>
        w.type === 'status_overview' ? (
          <StatusOverview key={i} widget={w} summary={summary} />
        ) : w.type === 'metrics_chart' ? (
          <MetricsChart key={i} store={store} widget={w} bars={bars} />
        ) : isKnownWidget(w.type) ? null : (
          <UnsupportedWidget key={i} widget={w} />
        ),
      )}
      <Text bold wrap="truncate">
        {sanitize(list.title)}
      </Text>
      <FilterLine store={store} />
      <CheckList store={store} rows={rows} height={listHeight} lastResult={list.showLastResult} />
    </Box>
  );
}
