// A dashboard's widgets as the console's own: status counts, and a placeholder
// for any widget type the console does not know (never a crash).
import { Box, Text } from 'ink';
import { statusShares } from '../../../domain/summary.js';
import { formatPercent } from '../../../domain/format.js';
import { setting, flag } from '../../../domain/dashboard-widgets.js';
import { sanitize } from '../../../domain/sanitize.js';
import type { StatusSummary, Widget } from '../../../store/types.js';
import { tint, useTheme } from '../../theme.js';

/** The availability window of the statuses the console reads. */
const STATUS_PERIOD = '24h';

export function WidgetTitle({ widget }: { widget: Widget }) {
  return (
    <Text bold wrap="truncate">
      {sanitize(widget.title) || sanitize(widget.type)}
    </Text>
  );
}

export function StatusOverview({ widget, summary }: { widget: Widget; summary: StatusSummary }) {
  const theme = useTheme();
  const percent = flag(widget, 'showPercentage');
  const asked = setting(widget, 'timeRange');
  const window =
    asked && asked !== STATUS_PERIOD
      ? `over ${STATUS_PERIOD} (timeRange ${sanitize(asked)} is not read)`
      : `over ${STATUS_PERIOD}`;
  return (
    <Box flexDirection="column">
      <WidgetTitle widget={widget} />
      <Text wrap="truncate">
        {'  '}
        {statusShares(summary).map(({ status, count, percent: p }) => {
          const look = theme.status[status];
          return (
            <Text
              key={status}
              color={count > 0 ? tint(theme, look.color) : undefined}
              bold={count > 0 && status !== 'passing'}
            >
              {`${look.glyph} ${count} ${status}${percent ? ` ${formatPercent(p, 1)}` : ''}  `}
            </Text>
          );
        })}
        <Text color={tint(theme, theme.dim)}>
          {`avail ${formatPercent(summary.averageAvailability, 2)} ${window}`}
        </Text>
      </Text>
    </Box>
  );
}

export function UnsupportedWidget({ widget }: { widget: Widget }) {
  const theme = useTheme();
  return (
    <Box flexDirection="column">
      <WidgetTitle widget={widget} />
      <Text color={tint(theme, theme.dim)} wrap="truncate">
        {`  unsupported widget: ${sanitize(widget.type)}`}
      </Text>
    </Box>
  );
}
