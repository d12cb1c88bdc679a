// The wall's top line: who and where, a clock and the age of the data, so a
// frozen screen is obvious. The clock is the only thing on the wall that moves
// every second; it reads the time as text and is drawn in pieces (hours,
// minutes, seconds), because Ink 6.8 keeps every distinct Text it measured for
// good: a whole "14:03:07 UTC" line would leave 86,400 of them a day.
import { Box, Text } from 'ink';
import { useStore } from 'zustand';
import { formatAgeStep, formatClock, formatSpan } from '../../../domain/format.js';
import { displayWidth, sanitize, truncate } from '../../../domain/sanitize.js';
import type { ConsoleState, ConsoleStore } from '../../../store/state.js';
import { selectScope } from '../../../store/selectors.js';
import { tint, useTheme } from '../../theme.js';
import { identity } from '../board/header.js';

/** "14:03:07 UTC". */
const CLOCK_WIDTH = 12;

export function WallHeader({ store }: { store: ConsoleStore }) {
  const theme = useTheme();
  const session = useStore(store, (s) => s.session);
  const cols = useStore(store, (s) => s.cols);
  const age = useStore(store, (s) =>
    s.lastSuccessAt === null ? null : formatAgeStep(s.lastSuccessAt, s.now),
  );
  const state = useStore(store, wallState);
  const scope = useStore(store, wallScope);
  // STALE says the data's age: it is not said twice.
  const updated = state.startsWith('STALE') ? '' : age === null ? '  updated never' : `  updated ${age} ago`;
  // The right side is never cut; one column apart from it, the scope (a wall
  // showing one dashboard must say so) before the host, the host before the label.
  const room = cols - displayWidth(state ? ` ${state} ` : '') - CLOCK_WIDTH - displayWidth(updated) - 1;
  const scopePart = scope
    ? truncate(` ${theme.rule} ${scope}`, room - 'Checkwall'.length, theme.ellipsis)
    : '';
  return (
    <Box justifyContent="space-between" height={1}>
      <Text bold wrap="truncate">
        Checkwall
        {identity(
          sanitize(session.label),
          sanitize(session.host),
          room - displayWidth(scopePart),
          theme.rule,
          theme.ellipsis,
        )}
        <Text color={tint(theme, theme.accent)}>{scopePart}</Text>
      </Text>
      <Box flexShrink={0}>
        <WallState state={state} />
        <Clock store={store} />
        <Text bold>{updated}</Text>
      </Box>
    </Box>
  );
}

/** What the wall shows, when it is not the whole account: "dashboard Operations, filter status:failing". */
function wallScope(s: ConsoleState): string {
  const dashboard = selectScope(s);
  const parts = [
    dashboard ? `dashboard ${sanitize(dashboard.name)}` : '',
    s.filterText.trim() ? `filter ${sanitize(s.filterText.trim())}` : '',
  ];
  return parts.filter(Boolean).join(', ');
}

/** Whether the wall shows data its service no longer answers for: it failed since its last answer. */
export const selectWallStale = (s: ConsoleState): boolean =>
  s.phase === 'retrying' && s.lastSuccessAt !== null;

/** STALE with the age of the data (as the board says it), PAUSED, or nothing. */
const wallState = (s: ConsoleState): string =>
  selectWallStale(s) ? `STALE ${formatSpan(s.now - s.lastSuccessAt!)}` : s.phase === 'paused' ? 'PAUSED' : '';

/** The state where a glance finds it. */
function WallState({ state: text }: { state: string }) {
  const theme = useTheme();
  if (!text) return null;
  return (
    <Text bold inverse color={tint(theme, text === 'PAUSED' ? 'yellow' : 'red')}>
      {` ${text} `}
    </Text>
  );
}

function Clock({ store }: { store: ConsoleStore }) {
  const [hh, mm, ss] = useStore(store, (s) => formatClock(s.now)).split(':');
  return (
    <>
      <Text bold>{hh}</Text>
      <Text bold>:</Text>
      <Text bold>{mm}</Text>
      <Text bold>:</Text>
      <Text bold>{ss}</Text>
      <Text bold> UTC</Text>
    </>
  );
}
