// One failing or degraded check on the wall: where it fails and for how long.
import { Text } from 'ink';
import { formatSpan } from '../../../domain/format.js';
import { fit, sanitize } from '../../../domain/sanitize.js';
import type { CheckStatus } from '../../../store/types.js';
import { tint, useTheme } from '../../theme.js';

/** How long it has been failing: since its incident, else since its locations last succeeded. */
export function failingFor(c: CheckStatus, now: number): string {
  if (c.currentIncident) return formatSpan(now - Date.parse(c.currentIncident.startedAt));
  const bad = c.locations.filter((l) => l.status === 'failing' || l.status === 'degraded');
  const lastOk = Math.min(
    ...bad
      .map((l) => (l.lastSuccess ? Date.parse(l.lastSuccess) : Number.NaN))
      .filter((t) => !Number.isNaN(t)),
  );
  return Number.isFinite(lastOk) ? formatSpan(now - lastOk) : '—';
}

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
  return (
    <Text wrap="truncate" inverse={isNew && theme.color} bold={isNew}>
      <Text color={tint(theme, look.color)} bold>
        {fit(`${look.glyph} ${look.word}`, 11)}
      </Text>
      {isNew ? 'NEW ' : '    '}
      {name}
      {`  for ${since.padEnd(6)} ${where ? `at ${where}` : sanitize(check.statusReason ?? '')}`}
    </Text>
  );
}
