// `:maintenance`: active and scheduled windows with scope, mode, who made them
// and when they end (or start); `e` ends one now (asked first), `+` extends one.
// Names, reasons and ids come from the service: every one is sanitised.
import { Box, Text } from 'ink';
import { useStore } from 'zustand';
import { formatSpan } from '../../../domain/format.js';
import { describeScope } from '../../../domain/maintenance-time.js';
import { sanitize } from '../../../domain/sanitize.js';
import { remoteData } from '../../../store/detail-slice.js';
import type { MaintenanceWindow } from '../../../store/types.js';
import { windowEnd, type WindowAction } from '../../../store/windows-slice.js';
import { keysOf } from '../../keymap.js';
import { tint, useTheme, type Theme } from '../../theme.js';
import { layoutColumns, type Column } from '../../widgets/table/layout.js';
import { Table } from '../../widgets/table/table.js';
import type { ViewProps } from '../view-props.js';
import { LoadingLine } from '../../widgets/loading/loading-line.js';

/** "ends in 25m" for an active window, "starts in 2h" for a scheduled one. */
export function whenText(w: MaintenanceWindow, now: number): string {
  if (w.state === 'active') return `ends in ${formatSpan(Math.max(0, Date.parse(windowEnd(w)) - now))}`;
  const start = w.occurrence?.startsAt ?? w.startsAt;
  return `starts in ${formatSpan(Math.max(0, Date.parse(start) - now))}`;
}

export function MaintenanceView({ store, height }: ViewProps<'maintenance'>) {
  const theme = useTheme();
  const remote = useStore(store, (s) => s.windows);
  const selected = useStore(store, (s) => s.selectedWindowId);
  const action = useStore(store, (s) => s.windowAction);
  const cols = useStore(store, (s) => s.cols);
  const now = useStore(store, (s) => s.now);
  const list = remoteData(remote);
  const columns = windowColumns(now, theme);
  const actionLine = action.state === 'idle' ? null : <ActionLine action={action} theme={theme} />;
  return (
    <Box flexDirection="column" height={height}>
      <Text bold>
        {`Maintenance windows${list ? ` (${list.length})` : ''}  `}
        <Text color={tint(theme, theme.dim)}>active and scheduled</Text>
      </Text>
      {remote.state === 'error' ? (
        <Text
          color={tint(theme, 'red')}
          wrap="truncate"
        >{`${remote.error.kind}: ${sanitize(remote.error.message)}`}</Text>
      ) : null}
      {actionLine}
      {!list ? <LoadingLine what="windows" failed={remote.state === 'error'} /> : null}
      {list && list.length === 0 ? (
        <Text>No active or scheduled windows: M on a check starts one.</Text>
      ) : null}
      {list && list.length > 0 ? (
        <Table
          columns={layoutColumns(columns, cols - 2, list)}
          rows={list}
          rowKey={(w) => w.id}
          selectedKey={selected}
          height={Math.max(1, height - 2 - (remote.state === 'error' ? 1 : 0) - (actionLine ? 1 : 0))}
        />
      ) : null}
    </Box>
  );
}

/**
 * The columns: SCOPE takes the room left over (a scope is what a window is about),
 * CHECKS counts what it covers now (`coveredChecks`; `—` from a service without it).
 */
function windowColumns(now: number, theme: Theme): Column<MaintenanceWindow>[] {
  return [
    { key: 'state', title: 'STATE', width: 9, priority: 0, cell: (w) => stateCell(w) },
    { key: 'name', title: 'NAME', width: 18, priority: 0, cell: (w) => ({ text: sanitize(w.name) }) },
    { key: 'when', title: 'WHEN', width: 15, priority: 0, cell: (w) => ({ text: whenText(w, now) }) },
    { key: 'mode', title: 'MODE', width: 7, priority: 1, cell: (w) => ({ text: w.mode }) },
    {
      key: 'scope',
      title: 'SCOPE',
      width: 18,
      max: 80,
      flex: true,
      priority: 1,
      cell: (w) => ({ text: sanitize(describeScope(w.scope)) }),
    },
    {
      key: 'covered',
      title: 'CHECKS',
      width: 6,
      align: 'right',
      priority: 1,
      cell: (w) => ({ text: w.coveredChecks ? String(w.coveredChecks.length) : theme.none }),
    },
    { key: 'by', title: 'BY', width: 12, priority: 2, cell: (w) => ({ text: sanitize(w.createdBy) }) },
    {
      key: 'reason',
      title: 'REASON',
      width: 16,
      max: 60,
      priority: 3,
      cell: (w) => ({ text: sanitize(w.reason) }),
    },
  ];
}

const stateCell = (w: MaintenanceWindow) => ({
  text: w.state,
  color: w.state === 'active' ? 'yellow' : undefined,
  bold: w.state === 'active',
});

function ActionLine({ action, theme }: { action: Exclude<WindowAction, { state: 'idle' }>; theme: Theme }) {
  const name = 'name' in action ? sanitize(action.name) : '';
  if (action.state === 'confirm')
    return (
      <Text color={tint(theme, 'yellow')} bold wrap="truncate">
        {action.cancel
          ? `Cancel ${name} before it starts?  ${keysOf('windowConfirm.yes')} yes  ${keysOf('windowConfirm.no')} no`
          : `End ${name} now? Its checks page again if still failing.  ${keysOf('windowConfirm.yes')} yes  ${keysOf('windowConfirm.no')} no`}
      </Text>
    );
  if (action.state === 'extend')
    return (
      <Text wrap="truncate">
        <Text color={tint(theme, 'yellow')}>{`Extend ${name} by (15m, 1h, 4h…): `}</Text>
        {sanitize(action.text)}
        <Text inverse> </Text>
        {action.error ? <Text color={tint(theme, 'red')}>{`  ${sanitize(action.error)}`}</Text> : null}
      </Text>
    );
  if (action.state === 'sending') return <Text color={tint(theme, theme.dim)}>{`sending: ${name}…`}</Text>;
  return (
    <Text color={tint(theme, action.ok ? 'green' : 'red')} wrap="truncate">
      {sanitize(action.message)}
    </Text>
  );
}
