// One failing or degraded check on the wall: where it fails and for how long.
// Drawn as separate Texts so the part that moves (how long) is its own short
// string: Ink keeps each distinct Text it measured.
import { Box, Text } from 'ink';
import { formatAgeStep } from '../../../domain/format.js';
import { fit, sanitize } from '../../../domain/sanitize.js';
import type { CheckStatus } from '../../../store/types.js';
import { tint, useTheme } from '../../theme.js';
import { undelivered } from '../board/columns.js';

/**
 * Since when it has been failing: its incident's start, else its bad locations'
 * earliest last success. A degraded check's runs succeed (slowly), so its last success says
 * nothing of when it became degraded, and the statuses do not say when it did: with
 * no incident its "for" is unknown (—), not the age of its last run.
 */
export function failingSince(c: CheckStatus): number | null {
  if (c.currentIncident) return Date.parse(c.currentIncident.startedAt);
  if (c.status !== 'failing') return null;
  const bad = c.locations.filter((l) => l.status === 'failing' || l.status === 'degraded');
  const lastOk = Math.min(
    ...bad
      .map((l) => (l.lastSuccess ? Date.parse(l.lastSuccess) : Number.NaN))
      .filter((t) => !Number.isNaN(t)),
  );
  return Number.isFinite(lastOk) ? lastOk : null;
}

/** How long it has been failing, in the wall's steps ("<10s", "20s", "4m"…), or "—". */
export const failingFor = (c: CheckStatus, now: number): string => formatAgeStep(failingSince(c), now);

export function AttentionRow({
  check,
  since,
  isNew,
  width,
}: {
  check: CheckStatus;
  since: string;
  isNew: boolean;
  width: number;
}) {
  const theme = useTheme();
  const look = theme.status[check.status];
  const where = check.locations
    .filter((l) => l.status === 'failing' || l.status === 'degraded')
    .map((l) => sanitize(l.name))
    .join(', ');
  const name = fit(sanitize(check.checkName), Math.max(12, Math.floor(width * 0.35)), theme.ellipsis);
  const hot = isNew && theme.color;
  return (
    <Box height={1}>
      {/* One layout at every width: only the locations give way (flexShrink), never the status. */}
      <Box flexShrink={0}>
        <Text color={tint(theme, look.color)} bold inverse={hot}>
          {fit(`${look.glyph} ${look.word}`, 10)}
        </Text>
        <Text bold inverse={hot}>
          {isNew ? ' NEW ' : '     '}
        </Text>
        <Text bold={isNew} inverse={hot}>
          {name}
        </Text>
      </Box>
      <Box flexShrink={0}>
        <Text bold={isNew}>{`  for ${since.padEnd(6)} `}</Text>
      </Box>
      {undelivered(check) ? (
        <Text color={tint(theme, 'red')} bold inverse={theme.color} wrap="truncate">
          {`${theme.undelivered} PAGE NOT DELIVERED`}
        </Text>
      ) : null}
      {undelivered(check) ? <Text> </Text> : null}
      <Text wrap="truncate">{where ? `at ${where}` : sanitize(check.statusReason ?? '')}</Text>
    </Box>
  );
}
