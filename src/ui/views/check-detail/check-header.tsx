// What the check is doing now: status, availability, performance, schedule,
// incident and alerts, a certificate close to its end, group and tags; and who
// paused it, since when, when a person did (a pause has no end: a forgotten one is seen).
import { Box, Text } from 'ink';
import { heartbeatWhen } from '../../../domain/heartbeat-words.js';
import { formatAge, formatPercent, formatResponseTime } from '../../../domain/format.js';
import { sanitize } from '../../../domain/sanitize.js';
import type { CheckStatus } from '../../../store/types.js';
import { shown, tint, useTheme, type Theme } from '../../theme.js';
import { CERTIFICATE_WARN_DAYS } from '../board/hold.js';
import { heldLine } from '../board/held-words.js';
import { whyNoPage } from '../board/no-page.js';
import { degradedFor } from '../wall/attention-row.js';

/** Lines the header takes. */
export const checkHeaderHeight = (check: CheckStatus) => 3 + (check.paused ? 1 : 0) + (check.heldBy ? 1 : 0);

/** "paused by ops since 2026-11-27 09:00 UTC (for 2h)". */
export function pausedLine(paused: NonNullable<CheckStatus['paused']>, now: number): string {
  const since = new Date(paused.since).toISOString().slice(0, 16).replace('T', ' ');
  return `paused by ${sanitize(paused.by)} since ${since} UTC (for ${formatAge(paused.since, now)})`;
}

/** " ─ why": the status's reason, but for a pause, which the paused line gives once with its time. */
const reasonText = (check: CheckStatus, theme: Theme): string =>
  check.statusReason && !check.paused ? ` ${theme.rule} ${sanitize(check.statusReason)}` : '';

/** The certificate the board marks in HOLD (`◔ 4d`), said in words. */
function CertificateNote({ check }: { check: CheckStatus }) {
  const theme = useTheme();
  const cert = check.certificate;
  if (!cert || cert.daysRemaining >= CERTIFICATE_WARN_DAYS) return null;
  const when =
    cert.daysRemaining < 0
      ? 'has expired'
      : `expires in ${cert.daysRemaining} day${cert.daysRemaining === 1 ? '' : 's'}`;
  return (
    <Text color={tint(theme, cert.daysRemaining < 7 ? 'red' : 'yellow')} bold>
      {`${theme.hold.certificate} certificate ${when}  `}
    </Text>
  );
}

export function CheckHeader({ check, now }: { check: CheckStatus; now: number }) {
  const theme = useTheme();
  const look = theme.status[check.status];
  const p = check.performance;
  const incident = check.currentIncident;
  return (
    <Box flexDirection="column">
      <Text wrap="truncate">
        <Text
          color={tint(theme, look.color)}
          bold
        >{`${look.glyph} ${look.word}${degradedFor(check, now)}`}</Text>
        <Text bold>{`  ${sanitize(check.checkName)}`}</Text>
        <Text
          color={tint(theme, theme.dim)}
        >{`  ${sanitize(check.checkType)}${reasonText(check, theme)}`}</Text>
      </Text>
      <Text wrap="truncate">
        {/* A heartbeat's next ping first: at 80 columns the figures after it give way. */}
        {heartbeatWhen(check) ? <Text bold>{`${heartbeatWhen(check)}  `}</Text> : null}
        {`availability ${shown(theme, formatPercent(check.availability.percentage))} over ${sanitize(check.availability.period)}  `}
        {`avg ${shown(theme, formatResponseTime(check.checkType, p.averageResponseTime))}  p95 ${shown(theme, formatResponseTime(check.checkType, p.p95ResponseTime))}  trend ${theme.trend[p.trend]} ${p.trend}  `}
        {`every ${sanitize(check.schedule.frequency)}${check.schedule.enabled ? `, next ${check.schedule.nextRun ? `in ${formatAge(now, Date.parse(check.schedule.nextRun))}` : theme.none}` : ' (disabled)'}`}
      </Text>
      <Text wrap="truncate">
        {/* First on its line: why no one was paged must survive 80 columns. */}
        {whyNoPage(check) ? <Text color={tint(theme, 'red')} bold>{`${whyNoPage(check)}  `}</Text> : null}
        <CertificateNote check={check} />
        {incident ? (
          <Text
            color={tint(theme, 'red')}
          >{`incident ${sanitize(incident.severity)}: ${sanitize(incident.title)} (since ${formatAge(incident.startedAt, now)} ago)  `}</Text>
        ) : (
          'no incident  '
        )}
        {`alerts ${check.alerts.active} active, ${check.alerts.acknowledged} acknowledged, ${check.alerts.total24h} in 24 h  `}
        <Text
          color={tint(theme, theme.dim)}
        >{`group ${check.group ? sanitize(check.group.name) : theme.none}  tags ${sanitize(check.tags.join(', ')) || theme.none}`}</Text>
      </Text>
      {check.paused ? (
        <Text color={tint(theme, 'yellow')} bold wrap="truncate">
          {pausedLine(check.paused, now)}
        </Text>
      ) : null}
      {check.heldBy ? (
        <Text color={tint(theme, 'magenta')} bold wrap="truncate">
          {heldLine(check.heldBy, check)}
        </Text>
      ) : null}
    </Box>
  );
}
