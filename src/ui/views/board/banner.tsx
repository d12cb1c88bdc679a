// Says why the data may be old and when the next try is, while the last data stays on screen.
import { Text } from 'ink';
import { useStore } from 'zustand';
import { formatSpan } from '../../../domain/format.js';
import { sanitize } from '../../../domain/sanitize.js';
import type { ConsoleStore } from '../../../store/state.js';
import { selectServiceTrouble } from '../../../store/selectors.js';
import { outageBanner } from './held-words.js';
import { tint, useTheme } from '../../theme.js';

export function ConnectionBanner({ store }: { store: ConsoleStore }) {
  const theme = useTheme();
  const error = useStore(store, (s) => s.lastError);
  // The countdown as text, and only while there is an error: otherwise the clock would
  // redraw the screen every second for a banner that is not there.
  const retryIn = useStore(store, (s) =>
    s.lastError && s.nextRetryAt !== null ? formatSpan(Math.max(0, s.nextRetryAt - s.now)) : null,
  );
  const hasData = useStore(store, (s) => s.statusesAt !== null);
  if (!error) return null;
  // When it retries comes before the error's own words, which can be long: a narrow
  // terminal cuts the end of the line, and the retry is what someone watching needs.
  const retry = retryIn === null ? '' : ` ${theme.rule} retrying in ${retryIn} (r: now)`;
  const lead = hasData ? 'showing the last data:' : 'connecting:';
  // The service saying what is wrong with itself is news about the service, not about our link.
  const what = error.service
    ? `service: ${sanitize(error.service)}${retry}`
    : `${error.kind}${error.status ? ` ${error.status}` : ''}${retry} ${theme.rule} ${sanitize(error.message)}`;
  return (
    <Text color={tint(theme, 'red')} wrap="truncate">
      {`${lead} ${what}`}
    </Text>
  );
}

/** The service's own word that it is degraded: the statuses below may be wrong, and why. */
export function ServiceBanner({ store }: { store: ConsoleStore }) {
  const theme = useTheme();
  const trouble = useStore(store, selectServiceTrouble);
  if (trouble === null) return null;
  return (
    <Text color={tint(theme, 'red')} bold wrap="truncate">
      {trouble}
    </Text>
  );
}

/** A location the service declares down: the cause of many failing checks, named once. */
export function LocationBanner({ store }: { store: ConsoleStore }) {
  const theme = useTheme();
  const text = useStore(store, (s) => outageBanner(s.locationOutages));
  if (text === null) return null;
  return (
    <Text color={tint(theme, 'red')} bold inverse={theme.color} wrap="truncate">
      {text}
    </Text>
  );
}
