// The wall's top line: who and where, a clock and the age of the data, so a
// frozen screen is obvious. The clock is the only thing on the wall that moves
// every second; it reads the time as text and is drawn in pieces (hours,
// minutes, seconds), because Ink 6.8 keeps every distinct Text it measured for
// good: a whole "14:03:07 UTC" line would leave 86,400 of them a day.
import { Box, Text } from 'ink';
import { useStore } from 'zustand';
import { formatAgeStep, formatClock } from '../../../domain/format.js';
import { sanitize } from '../../../domain/sanitize.js';
import type { ConsoleStore } from '../../../store/create-store.js';
import { useTheme } from '../../theme.js';

export function WallHeader({ store }: { store: ConsoleStore }) {
  const theme = useTheme();
  const session = useStore(store, (s) => s.session);
  const age = useStore(store, (s) =>
    s.lastSuccessAt === null ? null : formatAgeStep(s.lastSuccessAt, s.now),
  );
  return (
    <Box justifyContent="space-between" height={1}>
      <Text
        bold
        wrap="truncate"
      >{`Checkwall ${theme.rule} ${sanitize(session.label)} ${theme.rule} ${session.host}`}</Text>
      <Box flexShrink={0}>
        <Clock store={store} />
        <Text bold>{age === null ? '  updated never' : `  updated ${age} ago`}</Text>
      </Box>
    </Box>
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
