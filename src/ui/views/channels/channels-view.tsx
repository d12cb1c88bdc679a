// Alert channels: id, type, name, where it delivers (masked until v), what it
// serves, its last delivery (a test's outcome in place), failures in 24 h; where the
// table is too narrow for the last four, lines under it say them of the selected one.
import { Box, Text } from 'ink';
import { useStore } from 'zustand';
import { channelDetailLines } from '../../../domain/mask.js';
import { sanitize, truncate } from '../../../domain/sanitize.js';
import { groupWindowText } from '../../../domain/group-window.js';
import { secretFileName, type CreatedSecret } from '../../../store/channels-slice.js';
import type { GroupingEdit } from '../../../store/state.js';
import { remoteData } from '../../../store/detail-slice.js';
import type { AlertChannel } from '../../../store/types.js';
import { tint, useTheme } from '../../theme.js';
import { layoutColumns } from '../../widgets/table/layout.js';
import { Table } from '../../widgets/table/table.js';
import type { ViewProps } from '../view-props.js';
import { channelColumns } from './channel-columns.js';
import { testText } from './delivery-columns.js';
import { SELECTED_CHANNEL_LINES, SelectedChannel, tableHidesDelivery } from './selected-channel.js';
import { exchangeRows, hasExchange, TestExchange } from './test-exchange.js';
import { LoadingLine } from '../../widgets/loading/loading-line.js';

export function ChannelsView({ store, height }: ViewProps) {
  const theme = useTheme();
  const channels = useStore(store, (s) => s.lists.channels.remote);
  const selected = useStore(store, (s) => s.lists.channels.selectedId);
  const revealed = useStore(store, (s) => s.revealedChannelId);
  const cols = useStore(store, (s) => s.cols);
  const now = useStore(store, (s) => s.now);
  const tests = useStore(store, (s) => s.channelTests);
  const created = useStore(store, (s) => s.createdSecret);
  const grouping = useStore(store, (s) => s.grouping);
  const list = remoteData(channels);
  const shown = revealed === null ? undefined : list?.data.find((c) => c.id === revealed);
  const details = shown ? revealedLines(shown) : [];
  const test = selected === null ? undefined : tests[selected];
  const exchange = test?.state === 'done' && hasExchange(test.outcome) ? test.outcome : undefined;
  const exchangeLines = exchange ? exchangeRows(height) : 0;
  const columns = channelColumns(theme, { now, tests, revealed });
  const placed = list ? layoutColumns(columns, cols - 2, list.data) : [];
  const above =
    (test ? 1 : 0) +
    groupingLines(grouping) +
    exchangeLines +
    (created ? secretPanelLines(created, cols) : 0) +
    wrappedLines(details, cols);
  const room = Math.max(1, height - 3 - above);
  const told = toldChannel(list?.data ?? [], selected, placed, room);
  return (
    <Box flexDirection="column" height={height}>
      <Text bold wrap="truncate">
        {`Alert channels${list ? ` (${list.meta.totalItems})  page ${list.meta.currentPage}/${list.meta.totalPages}` : ''}  `}
        <Text color={tint(theme, theme.dim)}>
          {revealed === null
            ? 'secrets masked (v reveals the selected channel)'
            : 'revealed until you move or leave'}
        </Text>
      </Text>
      {channels.state === 'error' ? (
        <Text
          color={tint(theme, 'red')}
        >{`${channels.error.kind}: ${sanitize(channels.error.message)}`}</Text>
      ) : null}
      {grouping.state === 'idle' ? null : <GroupingLines grouping={grouping} />}
      {test ? (
        <Text color={tint(theme, testText(test).color)} wrap="truncate">
          {sanitize(testText(test).text)}
        </Text>
      ) : null}
      {exchange ? (
        <TestExchange
          outcome={exchange}
          channel={list?.data.find((c) => c.id === selected)}
          cols={cols}
          rows={exchangeLines}
        />
      ) : null}
      {details.length ? (
        <Box flexDirection="column" width={cols}>
          {details.map((line, i) => (
            <Text key={i} color={tint(theme, 'yellow')} wrap="wrap">
              {line}
            </Text>
          ))}
        </Box>
      ) : null}
      {created ? <SecretPanel created={created} cols={cols} /> : null}
      {!list ? <LoadingLine what="channels" failed={channels.state === 'error'} /> : null}
      {list && list.data.length === 0 ? <Text>No alert channels yet: n creates one.</Text> : null}
      {list && list.data.length > 0 ? (
        <Table
          columns={placed}
          rows={list.data}
          rowKey={(c) => String(c.id)}
          selectedKey={selected === null ? null : String(selected)}
          height={told ? room - SELECTED_CHANNEL_LINES : room}
        />
      ) : null}
      {told ? <SelectedChannel channel={told} now={now} test={tests[told.id]} /> : null}
    </Box>
  );
}

/** The selected channel, to tell under the table: only while every row (or 6 lines of them) fits above. */
function toldChannel(
  rows: readonly AlertChannel[],
  selected: number | null,
  placed: Parameters<typeof tableHidesDelivery>[0],
  room: number,
): AlertChannel | undefined {
  const current = rows.find((c) => c.id === selected);
  const fits = room - SELECTED_CHANNEL_LINES >= Math.min(rows.length + 1, 6);
  return current && fits && tableHidesDelivery(placed) ? current : undefined;
}

/** Lines `w` takes: the question, and under it why what was typed was refused. */
const groupingLines = (g: GroupingEdit): number =>
  g.state === 'idle' ? 0 : g.state === 'ask' && g.error ? 2 : 1;

/** `w`: the window asked for (as typed, then why it was refused), being sent, or how it went. */
function GroupingLines({ grouping }: { grouping: Exclude<GroupingEdit, { state: 'idle' }> }) {
  const theme = useTheme();
  if (grouping.state === 'done')
    return (
      <Text color={tint(theme, grouping.ok ? 'green' : 'red')} wrap="truncate">
        {sanitize(grouping.message)}
      </Text>
    );
  // A long name is cut so that what is typed stays on the line; the hint goes first.
  const name = truncate(sanitize(grouping.name), 24, theme.ellipsis);
  if (grouping.state === 'sending')
    return (
      <Text
        color={tint(theme, theme.dim)}
        wrap="truncate"
      >{`setting the window of ${name}${theme.ellipsis}`}</Text>
    );
  // The channel's own window, untouched, shows as selected: typing replaces it.
  const text = sanitize(grouping.text);
  return (
    <Box flexDirection="column">
      <Text wrap="truncate">
        <Text color={tint(theme, 'yellow')}>
          {`Grouping window of ${name}, now ${groupWindowText(grouping.was)}: `}
        </Text>
        {grouping.fresh && text ? <Text inverse>{text}</Text> : text}
        <Text inverse> </Text>
        <Text color={tint(theme, theme.dim)}>
          {`  90, 2m, off, or blank: ${groupWindowText(grouping.fallback)}`}
        </Text>
      </Text>
      {grouping.error ? (
        <Text color={tint(theme, 'red')} wrap="truncate">
          {sanitize(grouping.error)}
        </Text>
      ) : null}
    </Box>
  );
}

/** Lines the secret panel takes at `cols` (the secret wraps rather than being cut). */
export function secretPanelLines(created: CreatedSecret, cols: number): number {
  return 3 + Math.ceil(sanitize(created.secret).length / Math.max(1, cols - 4));
}

/** A new WEBHOOK's signing secret, whole, the one time the service gives it. */
function SecretPanel({ created, cols }: { created: CreatedSecret; cols: number }) {
  const theme = useTheme();
  const saved = created.saved;
  return (
    <Box flexDirection="column">
      <Text color={tint(theme, 'yellow')} bold wrap="truncate">
        {`Signing secret of ${sanitize(created.name)} (#${created.channelId}): it will not be shown again`}
      </Text>
      <Box paddingLeft={2} width={cols}>
        <Text wrap="wrap">{sanitize(created.secret)}</Text>
      </Box>
      <Text wrap="truncate" color={tint(theme, saved && !saved.ok ? 'red' : theme.dim)}>
        {created.saving
          ? 'saving…'
          : saved
            ? saved.ok
              ? `saved to ${sanitize(saved.path)} (mode 0600)`
              : sanitize(saved.message)
            : `o saves it (mode 0600) to ./${secretFileName(created.channelId)}, else $XDG_DATA_HOME/checkwall`}
      </Text>
    </Box>
  );
}

/** The revealed channel's values, whole, one part a line (sanitised: they came from the network). */
function revealedLines(c: AlertChannel): string[] {
  return channelDetailLines(c.type, c.config).map(
    ({ label, value }) => `  ${label.padEnd(7)} ${sanitize(value)}`,
  );
}

/** Lines `lines` take wrapped at `cols`. */
function wrappedLines(lines: readonly string[], cols: number): number {
  return lines.reduce((n, l) => n + Math.max(1, Math.ceil(l.length / Math.max(1, cols))), 0);
}
