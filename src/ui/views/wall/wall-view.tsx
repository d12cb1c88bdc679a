// The wall: big counts, a clock, what needs attention (paging by itself when it
// does not fit), and every other check as one mark. Built for a screen nobody
// touches: nothing here holds a timer; pages follow the store's clock.
import { Box, Text } from 'ink';
import { useStore } from 'zustand';
import { formatClock, formatSpan } from '../../../domain/format.js';
import { sanitize, truncate } from '../../../domain/sanitize.js';
import { selectBoardOrder } from '../../../store/selectors.js';
import type { CheckStatus } from '../../../store/types.js';
import { tint, useTheme } from '../../theme.js';
import { BigNumber, DIGIT_ROWS } from '../../widgets/big-digits/big-digits.js';
import { ConnectionBanner } from '../board/banner.js';
import type { ViewProps } from '../view-props.js';
import { AttentionRow, failingFor } from './attention-row.js';

const HIGHLIGHT_MS = 5 * 60_000;

export function WallView({ store, height }: ViewProps) {
  const theme = useTheme();
  const order = useStore(store, selectBoardOrder);
  const checks = useStore(store, (s) => s.checks);
  const now = useStore(store, (s) => s.now);
  const cols = useStore(store, (s) => s.cols);
  const session = useStore(store, (s) => s.session);
  const lastSuccessAt = useStore(store, (s) => s.lastSuccessAt);
  const hasError = useStore(store, (s) => s.lastError !== null);
  const turned = useStore(store, (s) => s.turnedFailingAt);
  const shown = order.map((id) => checks[id]).filter((c): c is CheckStatus => c !== undefined);
  const attention = shown.filter((c) => c.status === 'failing' || c.status === 'degraded');
  const rest = shown.filter((c) => c.status !== 'failing' && c.status !== 'degraded');
  const count = (st: CheckStatus['status']) => shown.filter((c) => c.status === st).length;
  const gridLines = Math.ceil(rest.length / Math.max(1, cols - 2));
  const room = Math.max(
    1,
    height - 2 - (hasError ? 1 : 0) - (DIGIT_ROWS + 2) - 2 - Math.min(gridLines, 4) - 1,
  );
  const pages = Math.max(1, Math.ceil(attention.length / room));
  const page = Math.floor(now / session.wallCycleMs) % pages;
  return (
    <Box flexDirection="column" height={height}>
      <Box justifyContent="space-between">
        <Text bold>{`Checkwall ${theme.rule} ${sanitize(session.label)} ${theme.rule} ${session.host}`}</Text>
        <Text
          bold
        >{`${formatClock(now)} UTC  updated ${lastSuccessAt === null ? 'never' : `${formatSpan(now - lastSuccessAt)} ago`}`}</Text>
      </Box>
      <ConnectionBanner store={store} />
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
      <Grid checks={rest} width={cols} maxLines={4} />
    </Box>
  );
}

function Grid({ checks, width, maxLines }: { checks: CheckStatus[]; width: number; maxLines: number }) {
  const theme = useTheme();
  const perLine = Math.max(1, width - 2);
  const lines = Array.from({ length: Math.min(maxLines, Math.ceil(checks.length / perLine)) }, (_, i) =>
    checks.slice(i * perLine, (i + 1) * perLine),
  );
  const hidden = checks.length - lines.flat().length;
  return (
    <Box flexDirection="column">
      {lines.map((line, i) => (
        <Text key={i}>
          {line.map((c) => (
            <Text key={c.checkId} color={tint(theme, theme.status[c.status].color)}>
              {theme.mark[c.status]}
            </Text>
          ))}
        </Text>
      ))}
      <Text color={tint(theme, theme.dim)}>
        {truncate(`${checks.length} other checks${hidden > 0 ? ` (${hidden} not drawn)` : ''}`, width)}
      </Text>
    </Box>
  );
}
