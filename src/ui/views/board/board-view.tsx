// The live board: header, connection banner, filter line and the virtualised
// list of checks, worst first.
import { Box, Text } from 'ink';
import { useMemo } from 'react';
import { useStore } from 'zustand';
import type { CheckStatus } from '../../../store/types.js';
import type { ConsoleStore } from '../../../store/create-store.js';
import { selectBoardRows, type BoardRow } from '../../../store/selectors.js';
import { tint, useTheme } from '../../theme.js';
import { layoutColumns } from '../../widgets/table/layout.js';
import { Table } from '../../widgets/table/table.js';
import { ConnectionBanner } from './banner.js';
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
  const filterShown = useStore(store, (s) => s.filterOpen || s.filterText !== '');
  const listHeight = Math.max(1, height - 2 - (hasError ? 1 : 0) - (filterShown ? 1 : 0) - 1);
  return (
    <Box flexDirection="column" height={height}>
      <Header store={store} title={title} />
      <ConnectionBanner store={store} />
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
  const now = useStore(store, (s) => s.now);
  const sortKey = useStore(store, (s) => s.sortKey);
  const descending = useStore(store, (s) => s.sortDesc);
  const loaded = useStore(store, (s) => s.statusesAt !== null);
  const maxLocations = useMemo(
    () => Math.max(0, ...Object.values(checks).map((c) => c.locations.length)),
    [checks],
  );
  const columns = useMemo(
    () =>
      layoutColumns(
        boardColumns(theme, now, maxLocations, { key: sortKey, descending }, lastResult),
        cols - 2,
      ),
    [theme, now, maxLocations, cols, sortKey, descending, lastResult],
  );
  if (rows.length === 0) {
    return (
      <Text color={tint(theme, theme.dim)}>
        {loaded ? '  no check matches the filter' : '  waiting for the first statuses…'}
      </Text>
    );
  }
  // Group headings ride in the same list, drawn across the row.
  const items: Item[] = rows.map((r) =>
    r.kind === 'check'
      ? { key: r.id, check: checks[r.id] }
      : { key: r.id, heading: `${r.name} (${r.count})` },
  );
  return (
    <Table<Item>
      columns={columns.map((c) => ({
        ...c,
        cell: (item: Item) => (item.check ? c.cell(item.check) : { text: '' }),
      }))}
      rows={items}
      rowKey={(item) => item.key}
      selectedKey={selectedId}
      height={height}
      fullRow={(item) => item.heading}
    />
  );
}

interface Item {
  key: string;
  check?: CheckStatus | undefined;
  heading?: string;
}

export function FilterLine({ store }: { store: ConsoleStore }) {
  const theme = useTheme();
  const text = useStore(store, (s) => s.filterText);
  const open = useStore(store, (s) => s.filterOpen);
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
