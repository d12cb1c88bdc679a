// The two header lines: who and where, the connection, and the account's counts.
import { Box, Text } from 'ink';
import { useStore } from 'zustand';
import { formatAgeStep, formatPercent, formatSpan } from '../../../domain/format.js';
import { STATUSES_WORST_FIRST } from '../../../domain/order.js';
import { sanitize } from '../../../domain/sanitize.js';
import type { ConsoleStore } from '../../../store/create-store.js';
import { selectCheckCount, selectFirstRuns, selectPollCycle } from '../../../store/selectors.js';
import type { StatusSummary } from '../../../store/types.js';
import { shown, tint, useTheme } from '../../theme.js';

export interface HeaderProps {
  store: ConsoleStore;
  title?: string | undefined;
  /** Counts of a part of the account (a dashboard's checks) instead of the account's. */
  summary?: StatusSummary | undefined;
}

export function Header({ store, title, summary: own }: HeaderProps) {
  const theme = useTheme();
  const session = useStore(store, (s) => s.session);
  const account = useStore(store, (s) => s.summary);
  const summary = own ?? account;
  const total = useStore(store, selectCheckCount);
  const cycle = useStore(store, (s) => selectPollCycle(s, 'short'));
  const firstRuns = useStore(store, (s) => selectFirstRuns(s));
  return (
    <Box flexDirection="column">
      <Box justifyContent="space-between">
        <Text wrap="truncate">
          <Text bold color={tint(theme, theme.accent)}>
            Checkwall
          </Text>
          {` ${theme.rule} ${sanitize(title ?? session.label)} ${theme.rule} ${session.host}`}
        </Text>
        <ConnectionState store={store} />
      </Box>
      <Text wrap="truncate">
        {STATUSES_WORST_FIRST.map((status) => {
          const n =
            status === 'unknown'
              ? Math.max(
                  0,
                  (summary?.totalChecks ?? total) -
                    (summary ? summary.passing + summary.failing + summary.degraded : 0),
                )
              : (summary?.[status] ?? 0);
          const look = theme.status[status];
          if (status === 'unknown' && firstRuns > 0 && !own)
            return (
              <Text key={status} color={tint(theme, theme.accent)} bold>
                {`${theme.ellipsis} first runs in progress (${firstRuns} of ${summary?.totalChecks ?? total})  `}
              </Text>
            );
          return (
            <Text
              key={status}
              color={n > 0 || status === 'passing' ? tint(theme, look.color) : undefined}
              bold={n > 0 && status !== 'passing'}
            >
              {`${look.glyph} ${n} ${status}  `}
            </Text>
          );
        })}
        <Text>{`incidents ${summary?.activeIncidents ?? 0}  alerts ${summary?.activeAlerts ?? 0}  avail ${shown(theme, formatPercent(summary?.averageAvailability ?? null, 1))}`}</Text>
        {cycle === null ? null : <Text color={tint(theme, theme.dim)}>{`  ${theme.rule} ${cycle}`}</Text>}
      </Text>
    </Box>
  );
}

function ConnectionState({ store }: { store: ConsoleStore }) {
  const theme = useTheme();
  const phase = useStore(store, (s) => s.phase);
  const polling = useStore(store, (s) => s.polling);
  // Read as text: the clock redraws the header only when what it says changes.
  const age = useStore(store, (s) =>
    s.lastSuccessAt === null ? null : formatAgeStep(s.lastSuccessAt, s.now),
  );
  const stale = useStore(store, (s) =>
    s.phase === 'retrying' && s.lastSuccessAt !== null ? formatSpan(s.now - s.lastSuccessAt) : '',
  );
  const look = {
    live: { text: polling ? 'live (polling)' : 'live', color: 'green' },
    connecting: { text: 'connecting', color: 'yellow' },
    retrying: { text: `STALE ${stale}`, color: 'red' },
    paused: { text: 'PAUSED', color: 'yellow' },
  }[phase];
  return (
    <Text>
      <Text color={tint(theme, look.color)} bold={phase !== 'live'}>
        {look.text}
      </Text>
      {age === null ? '' : ` ${theme.rule} updated ${age} ago`}
    </Text>
  );
}
