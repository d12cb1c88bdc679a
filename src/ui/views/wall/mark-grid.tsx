// Every check that needs no attention, as one mark each, a few lines at most.
// Runs of one status are drawn as one Text: few Ink nodes, and (Ink keeping each
// distinct Text it measured) a bounded set of strings however statuses move.
import { Box, Text } from 'ink';
import { truncate } from '../../../domain/sanitize.js';
import type { CheckStatus } from '../../../store/types.js';
import { tint, useTheme } from '../../theme.js';

type Status = CheckStatus['status'];

/** Consecutive marks of one status: [status, count][]. */
export function markRuns(statuses: readonly Status[]): Array<[Status, number]> {
  const runs: Array<[Status, number]> = [];
  for (const st of statuses) {
    const last = runs.at(-1);
    if (last && last[0] === st) last[1]++;
    else runs.push([st, 1]);
  }
  return runs;
}

export function MarkGrid({
  checks,
  width,
  maxLines,
}: {
  checks: CheckStatus[];
  width: number;
  maxLines: number;
}) {
  const theme = useTheme();
  const perLine = Math.max(1, width - 2);
  const lineCount = Math.min(maxLines, Math.ceil(checks.length / perLine));
  const lines = Array.from({ length: lineCount }, (_, i) =>
    checks.slice(i * perLine, (i + 1) * perLine).map((c) => c.status),
  );
  const hidden = checks.length - Math.min(checks.length, lineCount * perLine);
  return (
    <Box flexDirection="column">
      {lines.map((line, i) => (
        <Box key={i} height={1}>
          {markRuns(line).map(([status, n], j) => (
            <Text key={j} color={tint(theme, theme.status[status].color)}>
              {theme.mark[status].repeat(n)}
            </Text>
          ))}
        </Box>
      ))}
      <Text color={tint(theme, theme.dim)}>
        {truncate(`${checks.length} other checks${hidden > 0 ? ` (${hidden} not drawn)` : ''}`, width)}
      </Text>
    </Box>
  );
}
