// The check's results, with the summary of the filtered period above them and
// a sparkline of response times (failures marked).
import { Box, Text } from 'ink';
import { failureCause } from '../../../domain/breakdown.js';
import { formatClock, formatMs, formatPercent } from '../../../domain/format.js';
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
}: {
  list: CheckResultList | undefined;
  filters: ResultFilters;
}) {
  const theme = useTheme();
  const s = list?.meta.summary;
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
      <Text wrap="truncate">
        {s
          ? `${s.totalRuns} runs  ${s.failedRuns} failed  success ${formatPercent(s.successRate)}  avg ${formatMs(s.averageResponseTime)}  p95 ${formatMs(s.p95ResponseTime)}  p99 ${formatMs(s.p99ResponseTime)}`
          : 'no summary yet'}
      </Text>
    </Box>
  );
}

export function Sparkline({ results, width }: { results: readonly CheckResult[]; width: number }) {
  const theme = useTheme();
  const points = [...results]
    .sort((a, b) => Date.parse(a.startedAt) - Date.parse(b.startedAt))
    .map((r) => ({ value: r.response?.responseTime ?? null, failed: r.status === 'failed' }));
  const { text, failed } = sparkline(points, Math.max(10, width - 14), theme.ascii);
  return (
    <Text wrap="truncate">
      <Text color={tint(theme, theme.dim)}>{'response  '}</Text>
      {[...text].map((ch, i) => (
        <Text key={i} color={tint(theme, failed[i] ? 'red' : 'green')}>
          {failed[i] && !theme.color && ch !== '✕' && ch !== 'x' ? (theme.ascii ? 'x' : '✕') : ch}
        </Text>
      ))}
    </Text>
  );
}

function columns(theme: ReturnType<typeof useTheme>): Column<CheckResult>[] {
  return [
    { key: 'at', title: 'STARTED', width: 8, priority: 0, cell: (r) => ({ text: formatClock(r.startedAt) }) },
    {
      key: 'loc',
      title: 'LOCATION',
      width: 10,
      priority: 2,
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
      cell: (r) => ({ text: formatMs(r.response?.responseTime ?? r.duration) }),
    },
    {
      key: 'code',
      title: 'CODE',
      width: 4,
      align: 'right',
      priority: 3,
      cell: (r) => ({ text: r.response ? String(r.response.statusCode) : theme.none }),
    },
    { key: 'by', title: 'BY', width: 8, priority: 5, cell: (r) => ({ text: r.triggeredBy }) },
    {
      key: 'cause',
      title: 'FIRST FAILED ASSERTION OR ERROR',
      width: 20,
      flex: true,
      priority: 1,
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
  return (
    <Table
      columns={layoutColumns(columns(theme), width - 2)}
      rows={results}
      rowKey={(r) => r.id}
      selectedKey={selectedId}
      height={height}
    />
  );
}
