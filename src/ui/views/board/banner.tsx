// Says why the data may be old and when the next try is, while the last data stays on screen.
import { Text } from 'ink';
import { useStore } from 'zustand';
import { formatSpan } from '../../../domain/format.js';
import { sanitize } from '../../../domain/sanitize.js';
import type { ConsoleStore } from '../../../store/create-store.js';
import { tint, useTheme } from '../../theme.js';

export function ConnectionBanner({ store }: { store: ConsoleStore }) {
  const theme = useTheme();
  const error = useStore(store, (s) => s.lastError);
  const nextRetryAt = useStore(store, (s) => s.nextRetryAt);
  const now = useStore(store, (s) => s.now);
  const hasData = useStore(store, (s) => s.statusesAt !== null);
  if (!error) return null;
  const retry =
    nextRetryAt === null
      ? ''
      : ` ${theme.rule} retrying in ${formatSpan(Math.max(0, nextRetryAt - now))} (r: now)`;
  const lead = hasData ? 'showing the last data:' : 'connecting:';
  return (
    <Text color={tint(theme, 'red')} wrap="truncate">
      {`${lead} ${error.kind}${error.status ? ` ${error.status}` : ''} ${theme.rule} ${sanitize(error.message)}${retry}`}
    </Text>
  );
}
