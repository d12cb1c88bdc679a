// The live board: header, connection banner, filter line and the virtualised
// list of checks, worst first.
import { Box, Text } from 'ink';
import { useMemo } from 'react';
import { useStore } from 'zustand';
import { ageClock } from '../../../domain/format.js';
import type { ConsoleStore } from '../../../store/state.js';
import type { CheckStatus } from '../../../store/types.js';
import {
  selectBoardRows,
  selectFirstRuns,
  selectServiceTrouble,
  selectMaxLocations,
  type BoardRow,
} from '../../../store/selectors.js';
import { tint, useTheme } from '../../theme.js';
import { layoutColumns } from '../../widgets/table/layout.js';
import { Table } from '../../widgets/table/table.js';
import { ConnectionBanner, LocationBanner, ServiceBanner } from './banner.js';
import { boardColumns } from './columns.js';
import { Header } from './header.js';

export interface BoardViewProps {
  store: ConsoleStore;
  height: number;
  title?: string | undefined;
}

export function BoardView({ store, height, title }: BoardViewProps) {
  const rows = useStore(store, selectBoardRows);
  const hasError = useStore(store, (s) => s.lastError !== null);
  const serviceLine = useStore(store, (s) => selectServiceTrouble(s) !== null);
  const outageLine = useStore(store, (s) => s.locationOutages.length > 0);
  const filterShown = useStore(store, (s) => s.focus === 'filter' || s.filterText !== '');
  const listHeight = Math.max(
    1,
    height -
      2 -
      (hasError ? 1 : 0) -
      (serviceLine ? 1 : 0) -
      (outageLine ? 1 : 0) -
      (filterShown ? 1 : 0) -
      1,
  );
  return (
    <Box flexDirection="column" height={height}>
      <Header store={store} title={title} />
      <ConnectionBanner store={store} />
      <ServiceBanner store={store} />
      <LocationBanner store={store} />
      <FilterLine store={store} />
      <CheckList store={store} rows={rows} height={listHeight} />
    </Box>
  );
}

export interface CheckListProps {
  store: ConsoleStore;
  rows: BoardRow[];
  height: number;
  lastResult?: boolean | undefined;
}

export function CheckList({ store, rows, height, lastResult = false }: CheckListProps) {
  const theme = useTheme();
  const checks = useStore(store, (s) => s.checks);
  const selectedId = useStore(store, (s) => s.selectedId);
  const cols = useStore(store, (s) => s.cols);
  // Ages in the list move in steps: the list redraws when a step passes, not every second.
  const now = useStore(store, (s) => ageClock(s.now));
  const sortKey = useStore(store, (s) => s.sortKey);
  const descending = useStore(store, (s) => s.sortDesc);
  const loaded = useStore(store, (s) => s.statusesAt !== null);
  const maxLocations = useStore(store, selectMaxLocations);
  const firstRuns = useStore(store, (s) => selectFirstRuns(s) > 0);
  // The checks listed, which the columns are measured on (a name is kept whole up to its column's max).
  const listed = useMemo(
    () => rows.flatMap((r) => (r.kind === 'check' && checks[r.id] ? [checks[r.id]!] : [])),
    [rows, checks],
  );
  const columns = useMemo(
    () =>
      layoutColumns(
        boardColumns(theme, now, maxLocations, { key: sortKey, descending }, lastResult, firstRuns),
        cols - 2,
        listed,
      ),
    [theme, now, maxLocations, cols, sortKey, descending, lastResult, firstRuns, listed],
  );
  if (rows.length === 0) {
    return (
      <Text color={tint(theme, theme.dim)}>
        {loaded ? '  no check matches the filter' : '  waiting for the first statuses…'}
      </Text>
    );
  }
  return (
    <Table<BoardRow, CheckStatus>
      columns={columns}
      rows={rows}
      rowKey={rowKey}
      // Only the visible rows are looked up: nothing is built per check.
      resolve={(row) => (row.kind === 'check' ? checks[row.id] : undefined)}
      selectedKey={selectedId}
      height={height}
      fullRow={heading}
      position
    />
  );
}

// Group headings ride in the same list, drawn across the row.
const rowKey = (row: BoardRow) => row.id;
const heading = (row: BoardRow) => (row.kind === 'group' ? `${row.name} (${row.count})` : undefined);

export function FilterLine({ store }: { store: ConsoleStore }) {
  const theme = useTheme();
  const text = useStore(store, (s) => s.filterText);
  const open = useStore(store, (s) => s.focus === 'filter');
  const errors = useStore(store, (s) => s.filterErrors);
  if (!open && text === '') return null;
  return (
    <Text wrap="truncate">
      <Text color={tint(theme, theme.accent)}>/</Text>
      {text}
      {open ? <Text inverse> </Text> : null}
      <Text color={tint(theme, errors.length ? 'red' : theme.dim)}>
        {errors.length ? `  ${errors[0]}` : ''}
      </Text>
    </Text>
  );
}
