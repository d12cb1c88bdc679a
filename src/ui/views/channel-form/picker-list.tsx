// The list of checks or groups a channel may serve, opened from a subscription
// row: as many rows as it is given, around the cursor, and where they are not all
// shown, how many are not and where the cursor is.
import { Box, Text } from 'ink';
import { sanitize } from '../../../domain/sanitize.js';
import type { ChannelForm, Picker, PickOption } from '../../../store/channel-form.js';
import { windowStart } from '../../widgets/table/layout.js';
import { positionLine } from '../../widgets/table/table.js';
import { tint, useTheme } from '../../theme.js';

/** The list's lines besides its rows: its title, the search, "nothing matches". */
export const pickerLines = (p: Picker, options: number): number =>
  1 + (p.searching || p.query ? 1 : 0) + (options === 0 ? 1 : 0);

export function PickerList({
  form,
  options,
  rows,
}: {
  form: ChannelForm & { picker: Picker };
  options: readonly PickOption[];
  rows: number;
}) {
  const theme = useTheme();
  const p = form.picker;
  const cut = options.length > rows && rows > 1;
  const shown = cut ? rows - 1 : rows;
  const start = windowStart(p.cursor, options.length, shown);
  const chosen = form.subscriptions[p.kind];
  return (
    <Box flexDirection="column">
      <Text bold wrap="truncate">{`Subscribe to ${p.kind}: space toggles, / searches, enter done`}</Text>
      {p.searching || p.query ? (
        <Text wrap="truncate">
          {'search: '}
          <Text inverse={p.searching && theme.color}>{sanitize(p.query) || ' '}</Text>
        </Text>
      ) : null}
      {options.length === 0 ? (
        <Text color={tint(theme, theme.dim)}>{p.query ? 'nothing matches' : `no ${p.kind} known yet`}</Text>
      ) : null}
      {options.slice(start, start + shown).map((o, i) => {
        const at = start + i === p.cursor;
        return (
          <Text key={o.id} wrap="truncate" inverse={at && theme.color} bold={at}>
            {`${at ? theme.selected : ' '} [${chosen.includes(o.id) ? 'x' : ' '}] ${sanitize(o.label)}`}
          </Text>
        );
      })}
      {cut ? (
        <Text color={tint(theme, theme.dim)} wrap="truncate">
          {`  ${positionLine(options.length - shown, p.cursor + 1, options.length, theme)}`}
        </Text>
      ) : null}
    </Box>
  );
}
