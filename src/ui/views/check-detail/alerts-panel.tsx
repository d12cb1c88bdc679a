// The check's alert: open or not, acknowledged or not, pages that could not go
// out; the question before acknowledging and its answer; then the newest
// deliveries (event, channel, outcome, when).
import { Box, Text } from 'ink';
import { useStore } from 'zustand';
import { formatAge } from '../../../domain/format.js';
import { alertEventWord } from '../../../domain/alert-event-words.js';
import { fit, sanitize } from '../../../domain/sanitize.js';
import { ALERT_HISTORY_SIZE, type AckState } from '../../../store/alerts-slice.js';
import type { ConsoleStore } from '../../../store/state.js';
import { remoteData } from '../../../store/detail-slice.js';
import type { AlertNotification, AlertNotificationList, CheckStatus } from '../../../store/types.js';
import { keysOf } from '../../keymap.js';
import { tint, useTheme, type Theme } from '../../theme.js';

/** Rows of history shown: fewer on a short terminal, every one fetched when asked (D). */
export const historyRows = (height: number, all = false) =>
  all ? ALERT_HISTORY_SIZE : height >= 30 ? 4 : height >= 24 ? 2 : 1;

/** Deliveries there are beyond the `rows` shown: fetched and not, per the list's total. */
const hiddenDeliveries = (list: AlertNotificationList | undefined, rows: number) =>
  list ? Math.max(0, Math.max(list.meta.totalItems, list.data.length) - Math.min(rows, list.data.length)) : 0;

/** How many lines the panel takes, for the view's budget. */
export function alertsPanelHeight(store: ConsoleStore, checkId: string, rows: number): number {
  const s = store.getState();
  const list = remoteData(s.alertHistory);
  const history = list?.data.length ?? 0;
  const asking = s.ack.state !== 'idle' && s.ack.checkId === checkId ? 1 : 0;
  const more = hiddenDeliveries(list, rows) > 0 ? 1 : 0;
  return 1 + asking + Math.min(rows, Math.max(1, history)) + more;
}

export function AlertsPanel(props: { store: ConsoleStore; check: CheckStatus; rows: number; width: number }) {
  const { store, check, rows, width } = props;
  const theme = useTheme();
  const ack = useStore(store, (s) => s.ack);
  const history = useStore(store, (s) => (s.alertHistoryCheckId === check.checkId ? s.alertHistory : null));
  const now = useStore(store, (s) => s.now);
  const fetched = history ? remoteData(history) : undefined;
  const list = fetched?.data ?? [];
  const more = hiddenDeliveries(fetched, rows);
  const alert = check.currentAlert;
  return (
    <Box flexDirection="column">
      <Text wrap="truncate">
        <Text bold>Alert </Text>
        {alert ? (
          <Text color={tint(theme, alert.acknowledgedAt ? theme.dim : 'red')}>
            {`open ${formatAge(alert.openedAt, now)}, ${alert.acknowledgedAt ? `acknowledged ${formatAge(alert.acknowledgedAt, now)}` : `not acknowledged (${keysOf('check.acknowledge')} acknowledges)`}`}
          </Text>
        ) : (
          <Text color={tint(theme, theme.dim)}>none open</Text>
        )}
        {alert && alert.undelivered > 0 ? (
          <Text color={tint(theme, 'red')} bold>
            {`  ${theme.undelivered} ${alert.undelivered} page${alert.undelivered === 1 ? '' : 's'} not delivered`}
          </Text>
        ) : null}
      </Text>
      {ack.state !== 'idle' && ack.checkId === check.checkId ? <AckLine ack={ack} theme={theme} /> : null}
      {list.length === 0 ? (
        <Text color={tint(theme, theme.dim)}>
          {history?.state === 'error' ? ' history: could not load' : ' no deliveries yet'}
        </Text>
      ) : (
        list.slice(0, rows).map((n) => <HistoryRow key={n.id} n={n} now={now} width={width} theme={theme} />)
      )}
      {more > 0 ? <MoreLine more={more} canShow={rows < list.length} theme={theme} /> : null}
    </Box>
  );
}

function MoreLine({ more, canShow, theme }: { more: number; canShow: boolean; theme: Theme }) {
  const how = canShow ? `D shows the newest ${ALERT_HISTORY_SIZE}` : `older ones are not fetched`;
  return (
    <Text color={tint(theme, theme.dim)} wrap="truncate">
      {` ${theme.ellipsis} ${more} more deliver${more === 1 ? 'y' : 'ies'} (${how})`}
    </Text>
  );
}

function AckLine({ ack, theme }: { ack: Exclude<AckState, { state: 'idle' }>; theme: Theme }) {
  if (ack.state === 'confirm' || ack.state === 'sending')
    return ack.state === 'sending' ? (
      <Text color={tint(theme, theme.dim)}>acknowledging…</Text>
    ) : (
      <Text color={tint(theme, 'yellow')} bold wrap="truncate">
        {`Acknowledge the alert of ${sanitize(ack.checkName)}? Its reminders stop.  ${keysOf('confirm.yes')} yes  ${keysOf('confirm.no')} no`}
      </Text>
    );
  return (
    <Text color={tint(theme, ack.state === 'done' ? 'green' : 'red')} wrap="truncate">
      {sanitize(ack.message)}
    </Text>
  );
}

const OUTCOME_COLOR: Record<AlertNotification['status'], string | undefined> = {
  sent: 'green',
  pending: 'yellow',
  failed: 'red',
  suppressed: 'gray',
};

function HistoryRow({
  n,
  now,
  width,
  theme,
}: {
  n: AlertNotification;
  now: number;
  width: number;
  theme: Theme;
}) {
  const attempts = n.attempts === 1 ? '1 attempt' : `${n.attempts} attempts`;
  const why = n.lastError && n.status !== 'sent' ? `  ${n.lastError}` : '';
  return (
    <Text wrap="truncate">
      {` ${fit(formatAge(n.createdAt, now), 6).padEnd(6)} ${alertEventWord(n.event)} ${fit(sanitize(`${n.channel.name} (${n.channel.type})`), 26, theme.ellipsis).padEnd(26)} `}
      <Text color={tint(theme, OUTCOME_COLOR[n.status])} bold={n.status === 'failed'}>
        {n.status.padEnd(10)}
      </Text>
      {fit(`${attempts}${sanitize(why)}`, Math.max(10, width - 55), theme.ellipsis)}
    </Text>
  );
}
