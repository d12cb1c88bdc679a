// The maintenance window over the open check: its name and mode, who made it,
// when it ends, and why. The status names the window; the rest is read by its
// id (until then, what the status says). Two lines, or none without a window.
import { Box, Text } from 'ink';
import { useStore } from 'zustand';
import { formatClock, formatSpan } from '../../../domain/format.js';
import { sanitize } from '../../../domain/sanitize.js';
import type { ConsoleStore } from '../../../store/state.js';
import { remoteData } from '../../../store/detail-slice.js';
import type { CheckStatus } from '../../../store/types.js';
import { windowEnd } from '../../../store/windows-slice.js';
import { tint, useTheme } from '../../theme.js';

export const maintenancePanelHeight = (check: CheckStatus): number => (check.maintenance ? 2 : 0);

export function MaintenancePanel({ store, check }: { store: ConsoleStore; check: CheckStatus }) {
  const theme = useTheme();
  const now = useStore(store, (s) => s.now);
  const held = check.maintenance;
  const remote = useStore(store, (s) =>
    held && s.checkWindow?.id === held.id ? s.checkWindow.remote : null,
  );
  if (!held) return null;
  const fetched = remote ? remoteData(remote) : undefined;
  const failed = remote?.state === 'error' && !fetched ? `could not read it: ${remote.error.message}` : null;
  const endsAt = fetched ? windowEnd(fetched) : held.endsAt;
  const left = formatSpan(Math.max(0, Date.parse(endsAt) - now));
  const who = fetched ? `, by ${sanitize(fetched.createdBy)}` : '';
  const what = held.mode === 'pause' ? 'paused: the check does not run' : 'silenced: pages are held';
  return (
    <Box flexDirection="column">
      <Text wrap="truncate">
        <Text bold>Maintenance </Text>
        <Text color={tint(theme, 'yellow')} bold>
          {sanitize(fetched?.name ?? held.name)}
        </Text>
        {` (${what})${who}, ends in ${left} at ${formatClock(endsAt, false)}`}
      </Text>
      <Text wrap="truncate" color={tint(theme, theme.dim)}>
        {fetched ? ` reason: ${sanitize(fetched.reason)}` : ` reason: ${sanitize(failed ?? 'loading…')}`}
      </Text>
    </Box>
  );
}
