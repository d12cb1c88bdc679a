// Under the channels list, when the table is too narrow for the columns that say how a
// channel is doing (at 80 columns it keeps id, type, name and target): the selected
// channel's last delivery and failures, its grouping window and what it serves.
import { Box, Text } from 'ink';
import { groupWindowOf, groupWindowText } from '../../../domain/group-window.js';
import { sanitize } from '../../../domain/sanitize.js';
import type { ChannelTest } from '../../../store/alerts-slice.js';
import type { AlertChannel } from '../../../store/types.js';
import { tint, useTheme } from '../../theme.js';
import type { PlacedColumn } from '../../widgets/table/layout.js';
import { dialectText } from './channel-columns.js';
import { lastCell, subscribedText } from './delivery-columns.js';

/** The columns whose absence the lines make up for. */
const TOLD = ['last', 'failures', 'subscribed', 'group'];

/** The lines it takes: a blank one, then three. */
export const SELECTED_CHANNEL_LINES = 4;

/** Whether the table dropped a column the lines tell. */
export const tableHidesDelivery = (placed: readonly PlacedColumn<AlertChannel>[]): boolean =>
  TOLD.some((key) => !placed.some((c) => c.key === key));

export function SelectedChannel({
  channel: c,
  now,
  test,
}: {
  channel: AlertChannel;
  now: number;
  test: ChannelTest | undefined;
}) {
  const theme = useTheme();
  const last = lastCell(c, now, theme, test);
  const failures = c.failures24h ?? 0;
  const outages = c.subscriptions?.locations ?? [];
  return (
    <Box flexDirection="column">
      <Text> </Text>
      <Text wrap="truncate">
        <Text bold>{`${sanitize(c.name)} (#${c.id})`}</Text>
        {`  ${dialectText(c)}  grouping ${groupWindowText(groupWindowOf(c))}`}
      </Text>
      <Text wrap="truncate">
        {'  last delivery '}
        <Text color={tint(theme, last.color ?? theme.dim)}>{sanitize(last.text)}</Text>
        {failures > 0 ? (
          <Text color={tint(theme, 'red')} bold>{`  ${failures} failed in 24 h`}</Text>
        ) : (
          <Text color={tint(theme, theme.dim)}>{'  none failed in 24 h'}</Text>
        )}
      </Text>
      <Text wrap="truncate">
        {`  serves ${sanitize(subscribedText(c))}`}
        {outages.length ? `; the outages of ${sanitize(outages.join(', '))}` : ''}
      </Text>
    </Box>
  );
}
