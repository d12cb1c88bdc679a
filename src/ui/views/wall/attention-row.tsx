// One failing or degraded check on the wall: where it fails and for how long.
// Drawn as separate Texts so the part that moves (how long) is its own short
// string: Ink keeps each distinct Text it measured.
import { Box, Text } from 'ink';
import { formatAgeStep } from '../../../domain/format.js';
import { fit, sanitize } from '../../../domain/sanitize.js';
import type { CheckStatus } from '../../../store/types.js';
import { tint, useTheme } from '../../theme.js';
import { undelivered } from '../board/columns.js';
import { holdParts } from '../board/hold.js';
import { whyNoPage } from '../board/no-page.js';

/**
 * Since when it has been failing: its incident's start, else its bad locations'
 * earliest last success. A degraded check's runs succeed (slowly), so its last success
 * says nothing of when it became degraded: the service's degradedSince does (absent
 * from an older service: unknown, —, not the age of its last run).
 */
export function failingSince(c: CheckStatus): number | null {
  if (c.status === 'degraded' && c.degradedSince) return Date.parse(c.degradedSince);
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

/** " for 12m" after a degraded check's status word (the check view), "" when not degraded or unknown since when. */
export const degradedFor = (c: CheckStatus, now: number): string =>
  c.status === 'degraded' && c.degradedSince ? ` for ${formatAgeStep(c.degradedSince, now)}` : '';

/** Its locations failing or degraded. */
const inTrouble = (c: CheckStatus) =>
  c.locations.filter((l) => l.status === 'failing' || l.status === 'degraded');

/**
 * What a wall with room says under a check: why (and why no page went out), then each
 * location in trouble. With none in trouble the row itself says why, in place of where:
 * it is not said twice.
 */
export function attentionDetail(c: CheckStatus, now = 0): string[] {
  const places = inTrouble(c);
  const reason = places.length ? sanitize(c.statusReason ?? '') : '';
  const why = [reason, whyNoPage(c) ?? ''].filter(Boolean).join('; ');
  const lines = places.map((l) => {
    const ok = l.lastSuccess ? `${formatAgeStep(l.lastSuccess, now)} ago` : 'never';
    return `${sanitize(l.name)}: ${l.status}, last success ${ok}`;
  });
  return [...(why ? [why] : []), ...lines];
}

export function AttentionRow({
  check,
  since,
  isNew,
  width,
  now = 0,
  lines = 1,
}: {
  check: CheckStatus;
  since: string;
  isNew: boolean;
  width: number;
  now?: number | undefined;
  /** Lines it may take: its own, then as many of its detail lines (attentionDetail) as fit. */
  lines?: number | undefined;
}) {
  const theme = useTheme();
  const look = theme.status[check.status];
  const where = inTrouble(check)
    .map((l) => sanitize(l.name))
    .join(', ');
  const name = fit(sanitize(check.checkName), Math.max(12, Math.floor(width * 0.35)), theme.ellipsis);
  const hot = isNew && theme.color;
  const hold = holdParts(check, theme, now);
  return (
    <Box flexDirection="column">
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
          {hold.map((h) => (
            <Text key={h.text} color={tint(theme, h.color)} bold>{`${h.text} `}</Text>
          ))}
        </Box>
        {undelivered(check) ? (
          <Text color={tint(theme, 'red')} bold inverse={theme.color} wrap="truncate">
            {`${theme.undelivered} PAGE NOT DELIVERED`}
          </Text>
        ) : null}
        {undelivered(check) ? <Text> </Text> : null}
        <Text wrap="truncate">{where ? `at ${where}` : sanitize(check.statusReason ?? '')}</Text>
      </Box>
      {attentionDetail(check, now)
        .slice(0, lines - 1)
        .map((line, i) => (
          <Text key={i} wrap="truncate" color={tint(theme, theme.dim)}>
            {`           ${line}`}
          </Text>
        ))}
    </Box>
  );
}
