// One row per location: where is it failing? A location failing while the
// others pass is called out; a check failing while no location is says why. A remote location (run by `checkwall runner`)
// has a second line: when its runner was last seen, or that there is none.
import { Box, Text } from 'ink';
import { Fragment } from 'react';
import { locationFigures, type LocationFigures } from '../../../domain/breakdown.js';
import { formatAge, formatPercent, formatResponseTime } from '../../../domain/format.js';
import { SEVERITY, STATUSES_WORST_FIRST } from '../../../domain/order.js';
import { sanitize } from '../../../domain/sanitize.js';
import { failingAboveLocations } from '../../../domain/status-rules.js';
import type { CheckResult, CheckStatus } from '../../../store/types.js';
import { shown, tint, useTheme, type Theme } from '../../theme.js';
import { layoutColumns, type Column } from '../../widgets/table/layout.js';
import { cells, titles } from '../../widgets/table/table.js';

type Location = CheckStatus['locations'][number];

interface Row {
  l: Location;
  f: LocationFigures;
  /** The one location failing while the others pass. */
  lonely: boolean;
  running: boolean;
}

// The call-out comes before the figures: at 60 columns a location failing alone
// keeps "only this location fails" and drops LAST OK, SUCCESS, AVG and P95.
function columns(theme: Theme, checkType: string, now: number): Column<Row>[] {
  const figure = (v: string) => ({ text: shown(theme, v) });
  const only = `${theme.ascii ? '<-' : '◀'} only this location fails`;
  return [
    {
      key: 'location',
      title: 'LOCATION',
      width: 12,
      max: 30,
      priority: 0,
      cell: (r) => ({ text: `${sanitize(r.l.name)} (${sanitize(r.l.id)})` }),
    },
    {
      key: 'status',
      title: 'STATUS',
      width: 10,
      priority: 1,
      cell: (r) => {
        if (r.running) return { text: 'running…', color: theme.accent };
        const look = theme.status[r.l.status];
        return { text: `${look.glyph} ${look.word}`, color: look.color, bold: r.l.status !== 'passing' };
      },
    },
    {
      key: 'lastOk',
      title: 'LAST OK',
      width: 8,
      priority: 3,
      cell: (r) => figure(formatAge(r.l.lastSuccess, now)),
    },
    {
      key: 'success',
      title: 'SUCCESS',
      width: 8,
      align: 'right',
      priority: 4,
      cell: (r) => figure(formatPercent(r.f.successRate, 1)),
    },
    {
      key: 'avg',
      title: 'AVG',
      width: 8,
      align: 'right',
      priority: 5,
      cell: (r) => figure(formatResponseTime(checkType, r.f.average)),
    },
    {
      key: 'p95',
      title: 'P95',
      width: 8,
      align: 'right',
      priority: 6,
      cell: (r) => figure(formatResponseTime(checkType, r.f.p95)),
    },
    // Measured: drawn only when a row has it.
    {
      key: 'only',
      title: '',
      width: only.length,
      max: only.length,
      priority: 2,
      cell: (r) => (r.lonely ? { text: only, color: 'red', bold: true } : { text: '' }),
    },
  ];
}

export function LocationBreakdown({
  check,
  results,
  now,
  running = [],
  width,
  lines = locationBreakdownHeight(check),
}: {
  check: CheckStatus;
  results: readonly CheckResult[];
  now: number;
  /** Locations where a run asked for now is queued or running. */
  running?: readonly string[];
  width: number;
  /** The lines it may take (the view's budget): with fewer than it needs, the worst locations first. */
  lines?: number;
}) {
  const theme = useTheme();
  const bad = check.locations.filter((l) => l.status === 'failing' || l.status === 'degraded');
  const lonely = bad.length === 1 && check.locations.length > 1 ? bad[0]!.id : null;
  const rows: Row[] = check.locations.map((l) => ({
    l,
    f: locationFigures(results, l.id),
    lonely: lonely === l.id,
    running: running.includes(l.id),
  }));
  const why = failingAboveLocations(check);
  const cut = locationBreakdownHeight(check) > lines;
  // Cut: the worst first, one line each (no remote notes), and a line for the rest.
  const shownRows = cut
    ? [...rows]
        .sort((a, b) => SEVERITY[a.l.status] - SEVERITY[b.l.status])
        .slice(0, Math.max(0, lines - 2 - (why ? 1 : 0)))
    : rows;
  const hidden = rows.filter((r) => !shownRows.includes(r));
  const placed = layoutColumns(columns(theme, check.checkType, now), width - 2, rows);
  return (
    <Box flexDirection="column">
      <Text bold wrap="truncate">
        {'  '}
        {titles(placed, theme).trimEnd()}
      </Text>
      {shownRows.map((r) => (
        <Fragment key={r.l.id}>
          <Text wrap="truncate">
            {'  '}
            {cells(placed, r, theme)}
          </Text>
          {r.l.remote && !cut ? (
            <Text
              color={tint(theme, theme.dim)}
              wrap="truncate"
            >{`    ${remoteNote(r.l, now, theme.ascii)}`}</Text>
          ) : null}
        </Fragment>
      ))}
      {why ? (
        <Text color={tint(theme, 'red')} wrap="truncate">
          {`  ${theme.status.failing.glyph} ${theme.status.failing.word} as a whole: ${sanitize(why)}`}
        </Text>
      ) : null}
      {hidden.length > 0 ? (
        <Text
          color={tint(theme, theme.dim)}
          wrap="truncate"
        >{`  ${theme.ellipsis} ${moreLocations(hidden)}`}</Text>
      ) : null}
    </Box>
  );
}

/** "2 more locations: 1 unknown, 1 passing". */
function moreLocations(hidden: readonly Row[]): string {
  const parts = STATUSES_WORST_FIRST.map(
    (status) => [status, hidden.filter((r) => r.l.status === status).length] as const,
  )
    .filter(([, n]) => n > 0)
    .map(([status, n]) => `${n} ${status}`);
  return `${hidden.length} more location${hidden.length === 1 ? '' : 's'}: ${parts.join(', ')}`;
}

/**
 * Lines the breakdown takes: its header, a row per location, a note per remote one,
 * and why the check fails when no location does.
 */
export const locationBreakdownHeight = (check: CheckStatus) =>
  1 +
  check.locations.length +
  check.locations.filter((l) => l.remote).length +
  (failingAboveLocations(check) ? 1 : 0);

/** "remote · seen 12s ago", or "remote · no runner" when none was ever seen. */
export function remoteNote(l: CheckStatus['locations'][number], now: number, ascii: boolean): string {
  const dot = ascii ? '-' : '·';
  if (!l.runnerLastSeen) return `remote ${dot} no runner`;
  const seen = `remote ${dot} seen ${formatAge(l.runnerLastSeen, now)} ago`;
  return l.statusReason ? `${seen} ${dot} ${sanitize(l.statusReason)}` : seen;
}
