// The wall's top line: who and where, a clock and the age of the data, so a
// frozen screen is obvious. The clock is the only thing on the wall that moves
// every second; it reads the time as text and is drawn in pieces (hours,
// minutes, seconds), because Ink 6.8 keeps every distinct Text it measured for
// good: a whole "14:03:07 UTC" line would leave 86,400 of them a day.
import { Box, Text } from 'ink';
import { useStore } from 'zustand';
import { formatAgeStep, formatClock, formatSpan } from '../../../domain/format.js';
import { sanitize } from '../../../domain/sanitize.js';
import type { ConsoleState, ConsoleStore } from '../../../store/create-store.js';
import { selectScope } from '../../../store/selectors.js';
import { tint, useTheme } from '../../theme.js';

export function WallHeader({ store }: { store: ConsoleStore }) {
  const theme = useTheme();
  const session = useStore(store, (s) => s.session);
  const age = useStore(store, (s) =>
    s.lastSuccessAt === null ? null : formatAgeStep(s.lastSuccessAt, s.now),
  );
  const scope = useStore(store, wallScope);
  return (
    <Box justifyContent="space-between" height={1}>
      <Text bold wrap="truncate">
        {`Checkwall ${theme.rule} ${sanitize(session.label)} ${theme.rule} ${session.host}`}
        <Text color={tint(theme, theme.accent)}>{scope ? ` ${theme.rule} ${scope}` : ''}</Text>
      </Text>
      <Box flexShrink={0}>
        <WallState store={store} />
        <Clock store={store} />
        <Text bold>{age === null ? '  updated never' : `  updated ${age} ago`}</Text>
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

/** STALE with the age of the data (as the board says it) or PAUSED, where a glance finds it. */
function WallState({ store }: { store: ConsoleStore }) {
  const theme = useTheme();
  const text = useStore(store, (s) =>
    s.phase === 'retrying' && s.lastSuccessAt !== null
      ? `STALE ${formatSpan(s.now - s.lastSuccessAt)}`
      : s.phase === 'paused'
        ? 'PAUSED'
        : '',
  );
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
