// The wall: big counts, a clock, what needs attention (paging by itself when it
// does not fit), and every other check as one mark. Built for a screen nobody
// touches: nothing here holds a timer; pages follow the store's clock. Only the
// clock reads every second; the list reads the page (which moves every cycle)
// and the age clock (every 10 s), so between polls a tick redraws one line.
import { Box, Text } from 'ink';
import { useStore } from 'zustand';
import { ageClock } from '../../../domain/format.js';
import { selectBoardOrder, selectServiceTrouble } from '../../../store/selectors.js';
import type { CheckStatus } from '../../../store/types.js';
import { tint, useTheme } from '../../theme.js';
import { BigNumber, DIGIT_ROWS } from '../../widgets/big-digits/big-digits.js';
import { ConnectionBanner, ServiceBanner } from '../board/banner.js';
import type { ViewProps } from '../view-props.js';
import { AttentionRow, failingFor } from './attention-row.js';
import { MarkGrid } from './mark-grid.js';
import { WallHeader } from './wall-header.js';

const HIGHLIGHT_MS = 5 * 60_000;
const GRID_LINES = 4;

export function WallView({ store, height }: ViewProps) {
  const theme = useTheme();
  const order = useStore(store, selectBoardOrder);
  const checks = useStore(store, (s) => s.checks);
  const cols = useStore(store, (s) => s.cols);
  const hasError = useStore(store, (s) => s.lastError !== null);
  const serviceLine = useStore(store, (s) => selectServiceTrouble(s) !== null);
  const turned = useStore(store, (s) => s.turnedFailingAt);
  const tick = useStore(store, (s) => Math.floor(s.now / s.session.wallCycleMs));
  const now = useStore(store, (s) => ageClock(s.now));
  const shown = order.map((id) => checks[id]).filter((c): c is CheckStatus => c !== undefined);
  const attention = shown.filter((c) => c.status === 'failing' || c.status === 'degraded');
  const rest = shown.filter((c) => c.status !== 'failing' && c.status !== 'degraded');
  const count = (st: CheckStatus['status']) => shown.filter((c) => c.status === st).length;
  const gridLines = Math.min(GRID_LINES, Math.ceil(rest.length / Math.max(1, cols - 2)));
  const room = Math.max(
    1,
    height - 1 - (hasError ? 1 : 0) - (serviceLine ? 1 : 0) - (DIGIT_ROWS + 2) - 2 - gridLines - 1,
  );
  const pages = Math.max(1, Math.ceil(attention.length / room));
  const page = tick % pages;
  return (
    <Box flexDirection="column" height={height}>
      <WallHeader store={store} />
      <ConnectionBanner store={store} />
      <ServiceBanner store={store} />
      <Box marginTop={1}>
        <BigNumber value={count('failing')} label="FAILING" color={count('failing') ? 'red' : undefined} />
        <BigNumber
          value={count('degraded')}
          label="DEGRADED"
          color={count('degraded') ? 'yellow' : undefined}
        />
        <BigNumber value={count('unknown')} label="UNKNOWN" color="gray" />
        <BigNumber value={count('passing')} label="PASSING" color="green" />
      </Box>
      <Text> </Text>
      {attention.length === 0 ? (
        <Text bold color={tint(theme, 'green')}>
          {shown.length
            ? `All ${shown.length - count('unknown')} checks with data are passing.`
            : 'No checks yet.'}
        </Text>
      ) : (
        <Text
          bold
        >{`Needs attention (${attention.length})${pages > 1 ? `  page ${page + 1}/${pages}` : ''}`}</Text>
      )}
      {attention.slice(page * room, page * room + room).map((c) => (
        <AttentionRow
          key={c.checkId}
          check={c}
          since={failingFor(c, now)}
          isNew={(turned[c.checkId] ?? 0) > now - HIGHLIGHT_MS}
          width={cols}
        />
      ))}
      <Box flexGrow={1} />
      <MarkGrid checks={rest} width={cols} maxLines={GRID_LINES} />
    </Box>
  );
}
