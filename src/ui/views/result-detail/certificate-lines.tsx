// The TLS certificate a run was shown (docs/certificates.md): who it names, who issued it,
// when it expires and, when an intermediate of its chain expires first, when that is.
// Every name came from the network: sanitized before it is drawn.
import type { ReactElement } from 'react';
import { Text } from 'ink';
import { rateCertificateDays } from '../../../domain/rating.js';
import { sanitize } from '../../../domain/sanitize.js';
import type { CheckResult } from '../../../store/types.js';
import { tint, type Theme } from '../../theme.js';

type Certificate = NonNullable<CheckResult['certificate']>;

const line = (key: string, text: string, color?: string) => (
  <Text key={key} color={color} wrap="truncate">
    {text}
  </Text>
);

/** "2026-12-07 11:00 UTC" from an ISO timestamp. */
const when = (iso: string) => `${sanitize(iso).slice(0, 16).replace('T', ' ')} UTC`;

/** "in 9 days", "in less than a day", "expired 3 days ago". */
export function daysText(days: number): string {
  if (days < 0) return `expired ${-days === 1 ? 'a day' : `${-days} days`} ago`;
  if (days === 0) return 'in less than a day';
  return `in ${days === 1 ? '1 day' : `${days} days`}`;
}

const RATING_COLOR: Record<string, string> = { good: 'green', 'needs-improvement': 'yellow', poor: 'red' };

const colorOf = (days: number, theme: Theme) => tint(theme, RATING_COLOR[rateCertificateDays(days)]);

export function certificateLines(c: Certificate, theme: Theme): ReactElement[] {
  const out = [
    line('c-subject', `  subject  ${sanitize(c.subject)}`),
    line('c-issuer', `  issuer   ${sanitize(c.issuer)}`),
    line(
      'c-expires',
      `  expires  ${when(c.validTo)} (${daysText(c.daysRemaining)})`,
      colorOf(c.daysRemaining, theme),
    ),
  ];
  if (
    c.chainValidTo !== null &&
    c.chainDaysRemaining !== null &&
    Date.parse(c.chainValidTo) < Date.parse(c.validTo)
  )
    out.push(
      line(
        'c-chain',
        `  chain    an intermediate expires first: ${when(c.chainValidTo)} (${daysText(c.chainDaysRemaining)})`,
        colorOf(c.chainDaysRemaining, theme),
      ),
    );
  if (c.serialNumber)
    out.push(line('c-serial', `  serial   ${sanitize(c.serialNumber)}`, tint(theme, theme.dim)));
  return out;
}
