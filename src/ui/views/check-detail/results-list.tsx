// The check's results, with the summary of the filtered period above them and
// a sparkline of response times (failures marked).
import { Box, Text } from 'ink';
import { failureCause } from '../../../domain/breakdown.js';
import { formatClock, formatMs } from '../../../domain/format.js';
import { matchesRunFilters, resultsSummaryLine } from '../../../domain/results-summary.js';
import { sanitize } from '../../../domain/sanitize.js';
import { sparkline } from '../../../domain/sparkline.js';
import type { ResultFilters } from '../../../store/detail-slice.js';
import type { CheckResult, CheckResultList } from '../../../store/types.js';
import { tint, useTheme } from '../../theme.js';
import { layoutColumns, type Column } from '../../widgets/table/layout.js';
import { Table } from '../../widgets/table/table.js';

export function ResultsSummary({
  list,
  filters,
  checkType,
}: {
  list: CheckResultList | undefined;
  filters: ResultFilters;
  checkType: string;
}) {
  const theme = useTheme();
  const parts = [
    `period ${filters.period}`,
    filters.status ? `status ${filters.status}` : 'all results',
    filters.location ? `at ${filters.location}` : null,
    filters.triggeredBy ? `by ${filters.triggeredBy}` : null,
    filters.responseTimeMin ? `≥ ${filters.responseTimeMin} ms` : null,
    `sorted by ${filters.sortBy} ${filters.sortOrder}`,
    list ? `page ${list.meta.currentPage}/${list.meta.totalPages}` : null,
  ].filter(Boolean);
  return (
    <Box flexDirection="column">
      <Text color={tint(theme, theme.dim)} wrap="truncate">
        {parts.join(' · ')}
      </Text>
      <Text wrap="truncate">{resultsSummaryLine(list?.meta.summary, checkType)}</Text>
    </Box>
  );
}

/**
 * The runs the filtered list shows, oldest first: response times as blocks, or
 * for a heartbeat (pings have no response time) one mark per ping.
 */
export function Sparkline({
  results,
  filters,
  checkType,
  width,
}: {
  results: readonly CheckResult[];
  filters: ResultFilters;
  checkType: string;
  width: number;
}) {
  const theme = useTheme();
  const runs = results
    .filter((r) => matchesRunFilters(r, filters))
    .sort((a, b) => Date.parse(a.startedAt) - Date.parse(b.startedAt));
  const beat = checkType === 'heartbeat';
  const label = <Text color={tint(theme, theme.dim)}>{beat ? 'pings     ' : 'response  '}</Text>;
  if (runs.length === 0)
    return (
      <Text wrap="truncate">
        {label}
        {theme.none}
      </Text>
    );
  const points = runs.map((r) => ({
    value: r.response?.responseTime ?? null,
    failed: r.status === 'failed',
  }));
  const { text, failed } = beat
    ? pingMarks(runs, Math.max(10, width - 14), theme)
    : sparkline(points, Math.max(10, width - 14), theme.ascii);
  return (
    <Text wrap="truncate">
      {label}
      {[...text].map((ch, i) => (
        <Text key={i} color={tint(theme, failed[i] ? 'red' : 'green')}>
          {failed[i] && !theme.color && ch !== '✕' && ch !== 'x' ? (theme.ascii ? 'x' : '✕') : ch}
        </Text>
      ))}
    </Text>
  );
}

function pingMarks(runs: readonly CheckResult[], width: number, theme: ReturnType<typeof useTheme>) {
  const recent = runs.slice(-width);
  const failed = recent.map((r) => r.status === 'failed');
  return { text: failed.map((f) => (f ? theme.mark.failing : theme.mark.passing)).join(''), failed };
}

/**
 * A ping is no request: a heartbeat's runs are a job's. Its TIME is how long the job ran (known
 * from its /start), and an EXIT column stands where others have CODE: the exit code the job
 * sent, none for a plain ping or /fail (not the 0 ms and the statusCode 0 or 1 the service
 * records for a ping, for the spec's clients).
 */
const jobRunTime = (r: CheckResult, theme: ReturnType<typeof useTheme>): string =>
  r.heartbeat?.startedAt ? formatMs(r.duration) : theme.none;

function codeColumn(theme: ReturnType<typeof useTheme>, heartbeat: boolean): Column<CheckResult> {
  return {
    key: 'code',
    title: heartbeat ? 'EXIT' : 'CODE',
    width: 4,
    align: 'right',
    priority: 3,
    cell: (r) => {
      if (r.heartbeat)
        return { text: r.heartbeat.exitCode === null ? theme.none : String(r.heartbeat.exitCode) };
      return { text: r.response ? String(r.response.statusCode) : theme.none };
    },
  };
}

function columns(theme: ReturnType<typeof useTheme>, heartbeat: boolean): Column<CheckResult>[] {
  return [
    { key: 'at', title: 'STARTED', width: 8, priority: 0, cell: (r) => ({ text: formatClock(r.startedAt) }) },
    {
      key: 'loc',
      title: 'LOCATION',
      width: 10,
      max: 20,
      // Which location failed is read before the last columns of its cause (docs/console.md).
      priority: 1,
      cell: (r) => ({ text: sanitize(r.location.id) }),
    },
    {
      key: 'status',
      title: 'STATUS',
      width: 8,
      priority: 0,
      cell: (r) => ({
        text:
          r.status === 'failed' ? `${theme.status.failing.glyph} failed` : `${theme.status.passing.glyph} ok`,
        color: r.status === 'failed' ? 'red' : 'green',
      }),
    },
    {
      key: 'rt',
      title: 'TIME',
      width: 8,
      align: 'right',
      priority: 1,
      cell: (r) => ({
        text: r.heartbeat ? jobRunTime(r, theme) : formatMs(r.response?.responseTime ?? r.duration),
      }),
    },
    codeColumn(theme, heartbeat),
    { key: 'by', title: 'BY', width: 8, priority: 5, cell: (r) => ({ text: r.triggeredBy }) },
    {
      key: 'cause',
      title: 'FIRST FAILED ASSERTION OR ERROR',
      width: 20,
      max: 80,
      flex: true,
      priority: 2,
      cell: (r) => ({ text: sanitize(failureCause(r)), color: 'red' }),
    },
  ];
}

export function ResultsTable({
  results,
  selectedId,
  width,
  height,
}: {
  results: readonly CheckResult[];
  selectedId: string | null;
  width: number;
  height: number;
}) {
  const theme = useTheme();
  if (results.length === 0)
    return <Text color={tint(theme, theme.dim)}> no result in this period with these filters</Text>;
  const jobRuns = results.every((r) => r.heartbeat !== undefined);
  return (
    <Table
      columns={layoutColumns(columns(theme, jobRuns), width - 2, results)}
      rows={results}
      rowKey={(r) => r.id}
      selectedKey={selectedId}
      height={height}
      // Rows above or below the window (after a re-sort keeps the selection) are said, not hidden.
      position
    />
  );
}
