// One run: which phase was slow, which assertion failed, what went over the wire.
import { Box, Text } from 'ink';
import { useStore } from 'zustand';
import { failureCause } from '../../../domain/breakdown.js';
import { formatClock } from '../../../domain/format.js';
import { sanitize } from '../../../domain/sanitize.js';
import { findResult } from '../../../store/detail-slice.js';
import type { ViewProps } from '../view-props.js';
import { tint, useTheme } from '../../theme.js';
import { resultLines } from './result-lines.js';
import { pictureAllowed } from '../../commands/check-commands.js';
import { ScreenshotPane, screenshotNote } from './screenshot-pane.js';
import { RunbookLine } from '../hands/runbook-line.js';
import { linksSource, resultRoom } from './result-room.js';

export function ResultDetailView({ store, view, height }: ViewProps<'result'>) {
  const theme = useTheme();
  const detail = useStore(store, (s) => s.detail);
  const cols = useStore(store, (s) => s.cols);
  const screenshot = useStore(store, (s) => s.screenshot);
  const session = useStore(store, (s) => s.session);
  const check = useStore(store, (s) => s.checks[view.checkId]);
  const result = findResult(detail, view.resultId);
  if (!result)
    return (
      <Text>
        {detail.page.state === 'loading'
          ? 'loading the result…'
          : 'This result is no longer in the list. esc goes back.'}
      </Text>
    );
  const links = linksSource(result, check);
  const room = resultRoom(result, check, height);
  const shot = screenshot.resultId === result.id ? screenshot : null;
  const lines = shot?.shown
    ? [<ScreenshotPane key="picture" shot={shot} cols={cols - 2} rows={room} session={session} />]
    : resultLines(result, cols, theme);
  const scroll = Math.min(view.scroll, Math.max(0, lines.length - room));
  const failed = result.status === 'failed';
  return (
    <Box flexDirection="column" height={height}>
      <Text wrap="truncate" bold>
        <Text color={tint(theme, failed ? 'red' : 'green')}>
          {failed ? `${theme.status.failing.glyph} FAILED` : `${theme.status.passing.glyph} success`}
        </Text>
        {`  ${sanitize(result.checkName)} at ${sanitize(result.location.name)} (${sanitize(result.location.id)})  ${formatClock(result.startedAt)} UTC  by ${result.triggeredBy}`}
      </Text>
      <Text wrap="truncate" color={tint(theme, 'red')}>
        {failed ? `  ${sanitize(failureCause(result))}` : ' '}
      </Text>
      {links ? <RunbookLine source={links} width={cols} /> : null}
      {result.hasScreenshot ? (
        <Text wrap="truncate" color={tint(theme, theme.dim)}>
          {screenshotNote(shot, pictureAllowed(session))}
        </Text>
      ) : null}
      {lines.slice(scroll, scroll + room)}
      <Text color={tint(theme, theme.dim)}>
        {lines.length > room
          ? `  lines ${scroll + 1}-${Math.min(lines.length, scroll + room)} of ${lines.length}`
          : ' '}
      </Text>
    </Box>
  );
}
