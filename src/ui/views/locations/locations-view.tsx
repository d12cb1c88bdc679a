// `:locations`: each location with its checks passing / failing, its runners,
// and whether the service declares it down (location-rows.ts). Names come
// from the service: every one is sanitised.
import { Box, Text } from 'ink';
import { useStore } from 'zustand';
import { formatAgeStep, formatClock } from '../../../domain/format.js';
import { sanitize } from '../../../domain/sanitize.js';
import { tint, useTheme, type Theme } from '../../theme.js';
import { layoutColumns, type Column } from '../../widgets/table/layout.js';
import { Table } from '../../widgets/table/table.js';
import { LocationBanner } from '../board/banner.js';
import type { ViewProps } from '../view-props.js';
import { locationRows, type LocationRow } from './location-rows.js';

export function LocationsView({ store, height }: ViewProps<'locations'>) {
  const theme = useTheme();
  const checks = useStore(store, (s) => s.checks);
  const outages = useStore(store, (s) => s.locationOutages);
  const cols = useStore(store, (s) => s.cols);
  const now = useStore(store, (s) => s.now);
  const rows = locationRows(Object.values(checks), outages);
  return (
    <Box flexDirection="column" height={height}>
      <Text bold>
        {`Locations (${rows.length})  `}
        <Text color={tint(theme, theme.dim)}>checks per location, runners, outages</Text>
      </Text>
      <LocationBanner store={store} />
      {rows.length === 0 ? (
        <Text color={tint(theme, theme.dim)}>No location has run a check yet.</Text>
      ) : (
        <Table
          columns={layoutColumns(locationColumns(now, theme), cols - 2, rows)}
          rows={rows}
          rowKey={(r) => r.id}
          selectedKey={null}
          height={Math.max(1, height - 2 - (outages.length > 0 ? 1 : 0))}
        />
      )}
    </Box>
  );
}

/** "service" for a location the service runs itself; a remote one's runner, or "no runner". */
function runnersText(r: LocationRow, now: number): string {
  if (!r.remote) return 'service';
  return r.runnerLastSeen === null ? 'no runner' : `runner seen ${formatAgeStep(r.runnerLastSeen, now)} ago`;
}

function outageCell(r: LocationRow, theme: Theme) {
  if (!r.outage) return { text: theme.none };
  const o = r.outage;
  return {
    text: `DOWN ${o.failing}/${o.total} since ${formatClock(o.since).slice(0, 5)}`,
    color: 'red',
    bold: true,
  };
}

function locationColumns(now: number, theme: Theme): Column<LocationRow>[] {
  return [
    {
      key: 'name',
      title: 'LOCATION',
      width: 12,
      max: 24,
      priority: 0,
      cell: (r) => ({ text: sanitize(r.name), bold: !!r.outage }),
    },
    {
      key: 'passing',
      title: 'PASS',
      width: 5,
      align: 'right',
      priority: 0,
      cell: (r) => ({ text: String(r.passing), color: r.passing > 0 ? 'green' : undefined }),
    },
    {
      key: 'failing',
      title: 'FAIL',
      width: 5,
      align: 'right',
      priority: 0,
      cell: (r) => ({ text: String(r.failing), color: r.failing > 0 ? 'red' : undefined }),
    },
    {
      key: 'unknown',
      title: 'UNK',
      width: 4,
      align: 'right',
      priority: 2,
      cell: (r) => ({ text: String(r.unknown) }),
    },
    {
      key: 'runners',
      title: 'RUNNERS',
      width: 12,
      max: 24,
      priority: 1,
      cell: (r) => ({ text: runnersText(r, now) }),
    },
    {
      key: 'outage',
      title: 'OUTAGE',
      width: 10,
      max: 28,
      flex: true,
      priority: 0,
      cell: (r) => outageCell(r, theme),
    },
  ];
}
