// One row per location: where is it failing? A location failing while the
// others pass is called out. A remote location (run by `checkwall runner`)
// has a second line: when its runner was last seen, or that there is none.
import { Box, Text } from 'ink';
import { Fragment } from 'react';
import { locationFigures } from '../../../domain/breakdown.js';
import { formatAge, formatPercent, formatResponseTime } from '../../../domain/format.js';
import { fit, sanitize } from '../../../domain/sanitize.js';
import type { CheckResult, CheckStatus } from '../../../store/types.js';
import { shown, tint, useTheme } from '../../theme.js';

export function LocationBreakdown({
  check,
  results,
  now,
  running = [],
}: {
  check: CheckStatus;
  results: readonly CheckResult[];
  now: number;
  /** Locations where a run asked for now is queued or running. */
  running?: readonly string[];
}) {
  const theme = useTheme();
  const bad = check.locations.filter((l) => l.status === 'failing' || l.status === 'degraded');
  const lonely = bad.length === 1 && check.locations.length > 1 ? bad[0]!.id : null;
  return (
    <Box flexDirection="column">
      <Text
        bold
      >{`  ${fit('LOCATION', 22)} ${fit('STATUS', 10)} ${fit('LAST OK', 8)} ${fit('SUCCESS', 8, '…', 'right')} ${fit('AVG', 8, '…', 'right')} ${fit('P95', 8, '…', 'right')}`}</Text>
      {check.locations.map((l) => {
        const f = locationFigures(results, l.id);
        const look = theme.status[l.status];
        return (
          <Fragment key={l.id}>
            <Text wrap="truncate">
              {'  '}
              {fit(`${sanitize(l.name)} (${sanitize(l.id)})`, 22, theme.ellipsis)}{' '}
              {running.includes(l.id) ? (
                <Text color={tint(theme, theme.accent)}>{fit('running…', 10)}</Text>
              ) : (
                <Text color={tint(theme, look.color)} bold={l.status !== 'passing'}>
                  {fit(`${look.glyph} ${look.word}`, 10)}
                </Text>
              )}{' '}
              {fit(shown(theme, formatAge(l.lastSuccess, now)), 8)}{' '}
              {fit(shown(theme, formatPercent(f.successRate, 1)), 8, '…', 'right')}{' '}
              {fit(shown(theme, formatResponseTime(check.checkType, f.average)), 8, '…', 'right')}{' '}
              {fit(shown(theme, formatResponseTime(check.checkType, f.p95)), 8, '…', 'right')}
              {lonely === l.id ? (
                <Text
                  color={tint(theme, 'red')}
                  bold
                >{`  ${theme.ascii ? '<-' : '◀'} only this location fails`}</Text>
              ) : null}
            </Text>
            {l.remote ? (
              <Text
                color={tint(theme, theme.dim)}
                wrap="truncate"
              >{`    ${remoteNote(l, now, theme.ascii)}`}</Text>
            ) : null}
          </Fragment>
        );
      })}
    </Box>
  );
}

/** Lines the breakdown takes: its header, a row per location, and a note per remote one. */
export const locationBreakdownHeight = (check: CheckStatus) =>
  1 + check.locations.length + check.locations.filter((l) => l.remote).length;

/** "remote · seen 12s ago", or "remote · no runner" when none was ever seen. */
export function remoteNote(l: CheckStatus['locations'][number], now: number, ascii: boolean): string {
  const dot = ascii ? '-' : '·';
  if (!l.runnerLastSeen) return `remote ${dot} no runner`;
  const seen = `remote ${dot} seen ${formatAge(l.runnerLastSeen, now)} ago`;
  return l.statusReason ? `${seen} ${dot} ${sanitize(l.statusReason)}` : seen;
}
