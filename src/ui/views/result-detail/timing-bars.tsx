// The waterfall of one run: each phase offset and scaled to the total, its
// milliseconds beside it, coloured by the spec's response-time bands and
// readable without colour (the bar is drawn, the number written). The total's
// time outside the phases is a dim line of its own, so the phases visibly add up.
import type { ReactElement } from 'react';
import { Text } from 'ink';
import { formatMs } from '../../../domain/format.js';
import { rateResponseTime, ratingLevel } from '../../../domain/rating.js';
import { PHASE_LABELS, restOfRun, waterfall, type Stop } from '../../../domain/waterfall.js';
import type { Timing } from '../../../store/types.js';
import { tint, type Theme } from '../../theme.js';

const LEVEL_COLOR = ['green', 'yellow', 'red'] as const;

/** `stop`: where a failed run stopped (domain/waterfall.ts stoppedAt), drawn after the phases it finished. */
export function timingBarLines(
  timing: Timing,
  width: number,
  theme: Theme,
  stop?: Stop | null,
): ReactElement[] {
  const barWidth = Math.max(10, width - 34);
  const lines = waterfall(timing, barWidth).map((s) => (
    <Text key={s.phase} wrap="truncate">
      {`  ${PHASE_LABELS[s.phase].padEnd(14)} `}
      {' '.repeat(s.offset)}
      <Text color={tint(theme, LEVEL_COLOR[ratingLevel(rateResponseTime(s.ms))])}>
        {theme.bar.repeat(s.width)}
      </Text>
      {' '.repeat(Math.max(0, barWidth - s.offset - s.width))}
      {` ${formatMs(s.ms).padStart(8)}`}
    </Text>
  ));
  const rest = stop ? 0 : restOfRun(timing);
  if (rest > 0) {
    const offset = Math.min(barWidth - 1, Math.floor(((timing.total - rest) / timing.total) * barWidth));
    const width = barWidth - offset;
    lines.push(
      <Text key="rest" color={tint(theme, theme.dim)} wrap="truncate">
        {`  ${'Rest of run'.padEnd(14)} ${' '.repeat(offset)}${theme.bar.repeat(width)} ${formatMs(rest).padStart(8)}`}
      </Text>,
    );
  }
  if (stop) {
    const done = Math.max(0, timing.total - stop.ms);
    const offset = Math.min(barWidth - 1, Math.floor((done / Math.max(1, timing.total)) * barWidth));
    lines.push(
      <Text key="stop" wrap="truncate">
        {`  ${PHASE_LABELS[stop.phase].padEnd(14)} ${' '.repeat(offset)}`}
        <Text color={tint(theme, 'red')} bold>
          {`${theme.status.failing.glyph} ${stop.what} after ${formatMs(stop.ms)}`}
        </Text>
      </Text>,
    );
  }
  lines.push(
    <Text key="total" bold wrap="truncate">
      {`  ${'Total'.padEnd(14)} ${' '.repeat(barWidth)} ${formatMs(timing.total).padStart(8)}`}
    </Text>,
  );
  return lines;
}
