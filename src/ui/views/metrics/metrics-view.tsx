// The metric catalogue of a check type, and, with a check open, the check's own
// value of each metric over the period, rated against the metric's thresholds
// or the spec's guide bands.
import { Box, Text } from 'ink';
import type { ReactElement } from 'react';
import { useStore } from 'zustand';
import { metricValues, type MetricValues } from '../../../domain/metric-values.js';
import { plural } from '../../../domain/results-summary.js';
import { isHigherBetter, rateMetric, ratingLevel } from '../../../domain/rating.js';
import { fit, sanitize } from '../../../domain/sanitize.js';
import { remoteData } from '../../../store/detail-slice.js';
import type { ConsoleState } from '../../../store/state.js';
import type { MetricDefinition, MetricCatalogue } from '../../../store/types.js';
import { tint, useTheme, type Theme } from '../../theme.js';
import type { ViewProps } from '../view-props.js';
import { LoadingLine } from '../../widgets/loading/loading-line.js';

const GROUP_TITLES: Record<string, string> = {
  responseTimeMetrics: 'Response time',
  successMetrics: 'Success',
  volumeMetrics: 'Volume',
  browserSpecificMetrics: 'Browser',
  heartbeatSpecificMetrics: 'Heartbeat',
  certificateMetrics: 'Certificate',
};
const LEVEL_COLOR = ['green', 'yellow', 'red'] as const;

/** The catalogue's groups that have metrics, in the order drawn: a title line, then two lines a metric. */
function catalogueGroups(data: MetricCatalogue | undefined): [string, string, MetricDefinition[]][] {
  return Object.entries(GROUP_TITLES).flatMap(([group, title]) => {
    const metrics = (data?.data as Record<string, MetricDefinition[]> | undefined)?.[group] ?? [];
    return metrics.length ? [[group, title, metrics] as [string, string, MetricDefinition[]]] : [];
  });
}

/** Lines of metrics between the view's title (and the catalogue's error) and the position line. */
const metricsRoom = (height: number, catalogue: ConsoleState['catalogue']) =>
  Math.max(1, height - 2 - (catalogue.state === 'error' ? 1 : 0));

/** The furthest the catalogue scrolls in a view of `height` lines: its last line at the foot. */
export function metricsScrollEnd(s: ConsoleState, height: number): number {
  const lines = catalogueGroups(remoteData(s.catalogue)).reduce((n, [, , m]) => n + 1 + 2 * m.length, 0);
  return Math.max(0, lines - metricsRoom(height, s.catalogue));
}

export function MetricsView({ store, view, height }: ViewProps<'metrics'>) {
  const theme = useTheme();
  const catalogue = useStore(store, (s) => s.catalogue);
  const type = useStore(store, (s) => s.metricsType);
  const category = useStore(store, (s) => s.metricsCategory);
  const detail = useStore(store, (s) => s.detail);
  const cols = useStore(store, (s) => s.cols);
  const { checkId, filters, scroll } = view;
  const check = useStore(store, (s) => (checkId ? s.checks[checkId] : undefined));
  const window = remoteData(detail.window);
  const values = check && window ? metricValues(window.data, window.meta.summary) : undefined;
  const data = remoteData(catalogue);
  const lines: ReactElement[] = [];
  for (const [group, title, metrics] of catalogueGroups(data)) {
    lines.push(
      <Text key={group} bold>
        {title}
      </Text>,
    );
    for (const m of metrics) lines.push(...metricLines(m, values, cols, theme));
  }
  const room = metricsRoom(height, catalogue);
  const top = Math.min(scroll, Math.max(0, lines.length - room));
  const scope = check
    ? `for ${sanitize(check.checkName)} over ${filters.period} (${plural(window?.meta.summary?.totalRuns ?? 0, 'run')})`
    : 'pick a check on the board and press m to rate it';
  return (
    <Box flexDirection="column" height={height}>
      <Text bold wrap="truncate">
        {`Metrics: ${type}${category ? ` · ${category}` : ''}  `}
        <Text color={tint(theme, theme.dim)}>{scope}</Text>
      </Text>
      {catalogue.state === 'error' ? (
        <Text
          color={tint(theme, 'red')}
        >{`catalogue: ${catalogue.error.kind} ${theme.rule} ${sanitize(catalogue.error.message)}`}</Text>
      ) : null}
      {data ? null : <LoadingLine what="catalogue" failed={catalogue.state === 'error'} />}
      {data && lines.length === 0 ? (
        <Text color={tint(theme, theme.dim)} wrap="truncate">
          {`no metrics${category ? ` of category ${category.replace(/_/g, ' ')}` : ''} for ${type} checks`}
        </Text>
      ) : null}
      {lines.slice(top, top + room)}
      <Text color={tint(theme, theme.dim)}>
        {lines.length > room
          ? `  lines ${top + 1}-${Math.min(lines.length, top + room)} of ${lines.length} ${theme.rule} j/k scroll`
          : ' '}
      </Text>
    </Box>
  );
}

function metricLines(
  m: MetricDefinition,
  values: MetricValues | undefined,
  cols: number,
  theme: Theme,
): ReactElement[] {
  const op = isHigherBetter(m.name) ? '≥' : '≤';
  const thresholds =
    m.goodThreshold !== undefined
      ? `good ${op}${m.goodThreshold}, needs improvement ${op}${m.needsImprovementThreshold ?? '—'}`
      : '';
  // A count has no real ceiling: the service sends MAX_SAFE_INTEGER, which says nothing on screen.
  const range = !m.range
    ? ''
    : m.range.max >= Number.MAX_SAFE_INTEGER
      ? `range ≥${m.range.min}`
      : `range ${m.range.min}..${m.range.max}`;
  const meta = [
    sanitize(m.unit),
    sanitize(m.dataType),
    sanitize(m.calculationMethod),
    m.precision !== undefined ? `${m.precision} dp` : '',
    range,
    thresholds,
  ]
    .filter(Boolean)
    .join(' · ');
  const value = values?.[m.name];
  const rating = value === undefined || value === null ? null : rateMetric(m, value);
  const shown =
    value === undefined ? '' : value === null ? 'no data' : value.toFixed(Math.min(4, m.precision ?? 2));
  return [
    <Text key={m.name} wrap="truncate">
      {`  ${fit(sanitize(m.displayName), 30, theme.ellipsis)} `}
      {values ? <Text bold>{fit(shown, 12, theme.ellipsis, 'right')}</Text> : null}
      {values ? (
        <Text
          color={rating ? tint(theme, LEVEL_COLOR[ratingLevel(rating)]) : undefined}
        >{` ${fit(rating ?? '', 17)}`}</Text>
      ) : null}
      <Text color={tint(theme, theme.dim)}>{` ${meta}`}</Text>
    </Text>,
    <Text key={`${m.name}-d`} wrap="truncate" color={tint(theme, theme.dim)}>
      {`    ${fit(sanitize(m.description), Math.max(10, cols - 6), theme.ellipsis)}`}
    </Text>,
  ];
}
