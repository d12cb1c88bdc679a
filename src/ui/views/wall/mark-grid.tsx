// Every check that needs no attention, as one mark each, a few lines at most (by
// name too where the wall has room for them all); a held check shows why (hold.ts).
// Runs of one status are drawn as one Text: few Ink nodes, and (Ink keeping each
// distinct Text it measured) a bounded set of strings however statuses move.
import { Box, Text } from 'ink';
import { fit, sanitize, truncate } from '../../../domain/sanitize.js';
import type { CheckStatus } from '../../../store/types.js';
import { tint, useTheme, type Theme } from '../../theme.js';
import { holdParts } from '../board/hold.js';

/** Consecutive equal marks (a status, or a mark and its colour as one string): [mark, count][]. */
export function markRuns<T extends string>(marks: readonly T[]): Array<[T, number]> {
  const runs: Array<[T, number]> = [];
  for (const m of marks) {
    const last = runs.at(-1);
    if (last && last[0] === m) last[1]++;
    else runs.push([m, 1]);
  }
  return runs;
}

/** Cells of one check drawn by name ("● Payments API" and a gap), at the least. */
const NAME_CELL = 24;
export const namesPerLine = (width: number) => Math.max(1, Math.floor((width - 2) / NAME_CELL));

/**
 * The names' columns: as many lines as NAME_CELL-wide cells need, then the checks
 * spread evenly over them, each cell as wide as the line allows (a 200-column wall
 * does not cut a name at 21 cells with half its width free).
 */
export function nameCells(width: number, count: number): { perLine: number; cell: number } {
  const lines = Math.max(1, Math.ceil(count / namesPerLine(width)));
  const perLine = Math.max(1, Math.ceil(count / lines));
  return { perLine, cell: Math.max(NAME_CELL, Math.floor((width - 2) / perLine)) };
}

/** A check's mark on the wall: why it is held when it is (hold.ts), else its status. */
function markOf(c: CheckStatus, theme: Theme, now: number): { mark: string; color: string } {
  const hold = holdParts(c, theme, now)[0];
  if (hold) return { mark: hold.text.slice(0, 1), color: hold.color };
  return { mark: theme.mark[c.status], color: theme.status[c.status].color };
}

export function MarkGrid({
  checks,
  width,
  maxLines,
  names = false,
  now = 0,
}: {
  checks: CheckStatus[];
  width: number;
  maxLines: number;
  /** Each check as its mark and name, in columns (a wall with room for them all). */
  names?: boolean | undefined;
  now?: number | undefined;
}) {
  const theme = useTheme();
  const spread = nameCells(width, checks.length);
  const perLine = names ? spread.perLine : Math.max(1, width - 2);
  const lineCount = Math.min(maxLines, Math.ceil(checks.length / perLine));
  const lines = Array.from({ length: lineCount }, (_, i) =>
    checks.slice(i * perLine, (i + 1) * perLine).map((c) => ({ ...markOf(c, theme, now), c })),
  );
  const hidden = checks.length - Math.min(checks.length, lineCount * perLine);
  return (
    <Box flexDirection="column">
      {lines.map((line, i) =>
        names ? (
          <Box key={i} height={1}>
            {line.map(({ mark, color, c }) => (
              <Text key={c.checkId} wrap="truncate">
                <Text color={tint(theme, color)}>{`${mark} `}</Text>
                {fit(sanitize(c.checkName), spread.cell - 3, theme.ellipsis)}{' '}
              </Text>
            ))}
          </Box>
        ) : (
          <Box key={i} height={1}>
            {markRuns(line.map(({ mark, color }) => `${color} ${mark}`)).map(([key, n], j) => (
              <Text key={j} color={tint(theme, key.split(' ')[0])}>
                {key.split(' ')[1]!.repeat(n)}
              </Text>
            ))}
          </Box>
        ),
      )}
      <Text color={tint(theme, theme.dim)}>
        {truncate(`${checks.length} other checks${hidden > 0 ? ` (${hidden} not drawn)` : ''}`, width)}
      </Text>
    </Box>
  );
}
