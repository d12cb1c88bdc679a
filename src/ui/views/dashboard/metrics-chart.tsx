// A metrics_chart widget: the metric over the widget's period for each of the
// dashboard's checks as a bar, the dashboard's combined value, and a line of it
// over time from the runs fetched.
import { Box, Text } from 'ink';
import { useMemo } from 'react';
import { useStore } from 'zustand';
import {
  barCells,
  canChart,
  combine,
  coveredFrom,
  formatMetric,
  metricTitle,
  seriesOverTime,
  valuesPerCheck,
} from '../../../domain/dashboard-chart.js';
import { setting, widgetPeriod } from '../../../domain/dashboard-widgets.js';
import { formatClock } from '../../../domain/format.js';
import { fit, sanitize } from '../../../domain/sanitize.js';
import { sparkline } from '../../../domain/sparkline.js';
import type { ConsoleStore } from '../../../store/state.js';
import { remoteData } from '../../../store/detail-slice.js';
import type { Widget } from '../../../store/types.js';
import { tint, useTheme } from '../../theme.js';
import { WidgetTitle } from './widgets.js';

const NAME_W = 20;
const VALUE_W = 10;

/** Lines a chart takes with `bars` lines for bars. */
export const chartHeight = (bars: number) => 2 + bars;

export function MetricsChart({ store, widget, bars }: { store: ConsoleStore; widget: Widget; bars: number }) {
  const theme = useTheme();
  const { period, note } = widgetPeriod(widget);
  const metric = setting(widget, 'metric') ?? '';
  const remote = useStore(store, (s) => s.charts[period]);
  const isPublic = useStore(store, (s) => s.session.isPublic);
  const cols = useStore(store, (s) => s.cols);
  const data = remote ? remoteData(remote) : undefined;
  const values = useMemo(() => (data ? valuesPerCheck(metric, data.checks) : []), [data, metric]);
  const head = `  ${metric ? metricTitle(sanitize(metric)) : '(no metric)'} over ${period}${note ? ` ${theme.rule} ${sanitize(note)}` : ''}`;
  let body: string | null = null;
  if (isPublic) body = 'a public dashboard cannot show check results, so there is no chart';
  else if (!canChart(metric))
    body = `"${sanitize(metric)}" is not a metric this console computes (see :metrics)`;
  else if (remote?.state === 'error')
    body = `runs: ${remote.error.kind} ${theme.rule} ${sanitize(remote.error.message)}`;
  else if (!data) body = 'loading runs…';
  else if (data.checks.length === 0) body = 'no checks on this dashboard';
  if (body !== null || !data)
    return (
      <Box flexDirection="column">
        <WidgetTitle widget={widget} />
        <Text wrap="truncate" color={tint(theme, theme.dim)}>{`${head}: ${body ?? ''}`}</Text>
      </Box>
    );
  const total = combine(metric, values);
  const barWidth = Math.max(4, cols - 6 - NAME_W - VALUE_W);
  const max = Math.max(0, ...values.map((v) => v.value ?? 0));
  const covered = coveredFrom(data.checks, data.from);
  const line = sparkline(
    seriesOverTime(metric, data.checks, covered, data.to, Math.min(40, barWidth)).map((v) => ({
      value: v,
      failed: false,
    })),
    Math.min(40, barWidth),
    theme.ascii,
    ' ',
  ).text;
  // At most `bars` lines below the headline, the last saying how many did not fit.
  const shown = values.length > bars ? Math.max(0, bars - 1) : values.length;
  const more = data.leftOut > 0 ? ` (${data.leftOut} more checks not charted)` : '';
  return (
    <Box flexDirection="column">
      <WidgetTitle widget={widget} />
      <Text wrap="truncate">
        {`${head}: `}
        <Text bold>{formatMetric(metric, total)}</Text>
        <Text color={tint(theme, theme.accent)}>{`  ${line}`}</Text>
        <Text color={tint(theme, theme.dim)}>{`  since ${formatClock(covered)} UTC${more}`}</Text>
      </Text>
      {values.slice(0, shown).map((v) => (
        <Text key={v.checkId} wrap="truncate">
          {`  ${fit(sanitize(v.checkName), NAME_W, theme.ellipsis)} `}
          <Text color={tint(theme, theme.accent)}>{theme.bar.repeat(barCells(v.value, max, barWidth))}</Text>
          {` ${formatMetric(metric, v.value)}`}
        </Text>
      ))}
      {values.length > shown && bars > 0 ? (
        <Text color={tint(theme, theme.dim)}>{`  … ${values.length - shown} more`}</Text>
      ) : null}
    </Box>
  );
}
