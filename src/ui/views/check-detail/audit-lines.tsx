// The latest actions taken on the check (the audit trail): when, which key,
// what. As many lines as the terminal has room for, at least one.
import { Box, Text } from 'ink';
import { useStore } from 'zustand';
import { formatAge } from '../../../domain/format.js';
import { fit, sanitize } from '../../../domain/sanitize.js';
import { AUDIT_SIZE, remoteOf } from '../../../store/check-record-slice.js';
import type { ConsoleStore } from '../../../store/state.js';
import { remoteData } from '../../../store/detail-slice.js';
import type { AuditEvent } from '../../../store/types.js';
import { tint, useTheme } from '../../theme.js';

/** Lines of audit events shown: more on a taller terminal. */
export const auditRows = (height: number) => (height >= 40 ? AUDIT_SIZE : height >= 30 ? 3 : 1);

/** How many lines the list takes, for the view's budget. */
export function auditLinesHeight(store: ConsoleStore, checkId: string, rows: number): number {
  const remote = remoteOf(store.getState().audit, checkId);
  const events = (remote ? remoteData(remote)?.data.length : 0) ?? 0;
  return Math.max(1, Math.min(rows, events));
}

/** What an event did, in words. */
export function describeAction(e: AuditEvent): string {
  const d = e.details;
  switch (e.action) {
    case 'run': {
      const runs = Array.isArray(d['runs']) ? (d['runs'] as Array<{ location?: unknown }>) : [];
      const where = runs.map((r) => String(r.location ?? '?')).join(', ');
      return `ran it now (${String(d['triggeredBy'] ?? 'api')})${where ? ` at ${where}` : ''}`;
    }
    case 'pause':
      return 'paused it';
    case 'resume':
      return d['wasPaused'] === false ? 'resumed it (it was not paused)' : 'resumed it';
    case 'acknowledge':
      return 'acknowledged its alert';
    case 'channel.create':
    case 'channel.test':
    case 'channel.grouping':
    case 'channel.subscriptions':
    case 'maintenance.create':
    case 'maintenance.update':
    case 'maintenance.end':
    case 'maintenance.cancel':
    case 'maintenance.delete':
      return e.action;
  }
}

export function AuditLines({ store, checkId, rows }: { store: ConsoleStore; checkId: string; rows: number }) {
  const theme = useTheme();
  const remote = useStore(store, (s) => remoteOf(s.audit, checkId));
  const now = useStore(store, (s) => s.now);
  const events = (remote ? remoteData(remote)?.data : undefined) ?? [];
  const head = (i: number) => (i === 0 ? 'Actions ' : '        ');
  if (events.length === 0) {
    const why = remote?.state === 'error' ? 'could not load' : remote?.state === 'ok' ? 'none taken' : '…';
    return (
      <Text wrap="truncate">
        <Text bold>Actions </Text>
        <Text color={tint(theme, theme.dim)}>{why}</Text>
      </Text>
    );
  }
  return (
    <Box flexDirection="column">
      {events.slice(0, rows).map((e, i) => (
        <Text key={e.id} wrap="truncate">
          <Text bold>{head(i)}</Text>
          {`${fit(`${formatAge(e.at, now)} ago`, 8).padEnd(8)} ${fit(sanitize(e.keyName), 16, theme.ellipsis).padEnd(16)} ${sanitize(describeAction(e))}`}
        </Text>
      ))}
    </Box>
  );
}
