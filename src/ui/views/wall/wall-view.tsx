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
import { muted, ThemeContext, tint, useTheme } from '../../theme.js';
import { BigNumber, digitRows, type DigitScale } from '../../widgets/big-digits/big-digits.js';
import { ConnectionBanner, LocationBanner, ServiceBanner } from '../board/banner.js';
import type { ViewProps } from '../view-props.js';
import { AttentionRow, attentionDetail, failingFor } from './attention-row.js';
import { MarkGrid, namesPerLine } from './mark-grid.js';
import { selectWallStale, WallHeader } from './wall-header.js';

const HIGHLIGHT_MS = 5 * 60_000;
const GRID_LINES = 4;
/** A big screen (a wall at 200x55): digits at twice the size. */
const BIG_ROWS = 45;
const BIG_COLS = 120;

export function WallView({ store, height }: ViewProps) {
  const theme = useTheme();
  const order = useStore(store, selectBoardOrder);
  const checks = useStore(store, (s) => s.checks);
  const cols = useStore(store, (s) => s.cols);
  const hasError = useStore(store, (s) => s.lastError !== null);
  const serviceLine = useStore(store, (s) => selectServiceTrouble(s) !== null);
  const outageLine = useStore(store, (s) => s.locationOutages.length > 0);
  const turned = useStore(store, (s) => s.turnedFailingAt);
  const tick = useStore(store, (s) => Math.floor(s.now / s.session.wallCycleMs));
  const now = useStore(store, (s) => ageClock(s.now));
  // What a dead service left on screen is grey (or its digits bracketed), not drawn as live.
  const stale = useStore(store, selectWallStale);
  const shown = order.map((id) => checks[id]).filter((c): c is CheckStatus => c !== undefined);
  const attention = shown.filter((c) => c.status === 'failing' || c.status === 'degraded');
  const rest = shown.filter((c) => c.status !== 'failing' && c.status !== 'degraded');
  const count = (st: CheckStatus['status']) => shown.filter((c) => c.status === st).length;
  const scale: DigitScale = height >= BIG_ROWS && cols >= BIG_COLS ? 2 : 1;
  const plan = planWall({
    free:
      height -
      1 -
      (hasError ? 1 : 0) -
      (serviceLine ? 1 : 0) -
      (outageLine ? 1 : 0) -
      (digitRows(scale) + 2) -
      2 -
      1,
    details: attention.map((c) => attentionDetail(c).length),
    rest: rest.length,
    cols,
  });
  const room = plan.attentionRows;
  const pages = Math.max(1, Math.ceil(attention.length / room));
  const page = tick % pages;
  return (
    <Box flexDirection="column" height={height}>
      <WallHeader store={store} />
      <ConnectionBanner store={store} />
      <ServiceBanner store={store} />
      <LocationBanner store={store} />
      <ThemeContext.Provider value={stale ? muted(theme) : theme}>
        <Counts count={count} scale={scale} />
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
            now={now}
            lines={plan.perCheck}
          />
        ))}
        <Box flexGrow={1} />
        <MarkGrid checks={rest} width={cols} maxLines={plan.gridLines} names={plan.names} now={now} />
      </ThemeContext.Provider>
    </Box>
  );
}

/** The four big counts, grey (or bracketed) once the data is stale. */
function Counts({ count, scale }: { count: (st: CheckStatus['status']) => number; scale: DigitScale }) {
  return (
    <Box marginTop={1}>
      <BigNumber
        value={count('failing')}
        label="FAILING"
        color={count('failing') ? 'red' : undefined}
        scale={scale}
      />
      <BigNumber
        value={count('degraded')}
        label="DEGRADED"
        color={count('degraded') ? 'yellow' : undefined}
        scale={scale}
      />
      <BigNumber value={count('unknown')} label="UNKNOWN" color="gray" scale={scale} />
      <BigNumber value={count('passing')} label="PASSING" color="green" scale={scale} />
    </Box>
  );
}

export interface WallPlan {
  /** Attention rows a page holds. */
  attentionRows: number;
  /** Lines each attention row may take: its own, then why and where (attentionDetail), when all fit so. */
  perCheck: number;
  gridLines: number;
  /** The other checks by name, not as bare marks (when they all fit so). */
  names: boolean;
}

/** Detail lines an attention row can show at most: why, then its locations in trouble. */
const MOST_DETAIL = 9;

/**
 * How the wall spends its `free` lines: the attention list first (one line a check,
 * paging when they do not fit; where they all fit, each with as many of its detail
 * lines as the height allows: `details` counts them per check), then the other
 * checks, by name where they all fit, else as marks (at most GRID_LINES lines
 * unless there is room for more).
 */
export function planWall({
  free,
  details,
  rest,
  cols,
}: {
  free: number;
  details: readonly number[];
  rest: number;
  cols: number;
}): WallPlan {
  const marksLines = Math.min(GRID_LINES, Math.ceil(rest / Math.max(1, cols - 2)));
  const attention = details.length;
  const attentionRows = Math.max(1, free - marksLines);
  const used = (perCheck: number) => details.reduce((n, d) => n + 1 + Math.min(perCheck - 1, d), 0);
  // As many lines a check as the height allows, counted by what each has to say: a check
  // with one line of detail leaves room to another's third location (an even share left
  // lines empty at the foot while a location in trouble went unnamed).
  let perCheck = 1;
  if (attention > 0 && attention <= attentionRows)
    while (perCheck < 1 + MOST_DETAIL && used(perCheck + 1) <= free - marksLines) perCheck++;
  const left = Math.max(0, free - used(perCheck));
  const nameLines = Math.ceil(rest / namesPerLine(cols));
  if (rest > 0 && nameLines <= left) return { attentionRows, perCheck, gridLines: nameLines, names: true };
  const gridLines = Math.min(Math.ceil(rest / Math.max(1, cols - 2)), Math.max(marksLines, left));
  return { attentionRows, perCheck, gridLines, names: false };
}
