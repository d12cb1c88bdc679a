// Why a check is held, in a few cells (the board's HOLD column, the wall's rows):
// a maintenance window over it (its alerts silenced, or its runs paused by the
// window, with the time left), a person's pause (who), a certificate close to
// its end (days left), a hold the service names (`⤷ db-primary`: held-words.ts).
// A silenced red check says so at every width.
import { formatSpan } from '../../../domain/format.js';
import { sanitize } from '../../../domain/sanitize.js';
import type { CheckStatus } from '../../../store/types.js';
import type { Cell } from '../../widgets/table/layout.js';
import type { Theme } from '../../theme.js';
import { heldTag } from './held-words.js';

/** A certificate is marked when it has fewer whole days left than this. */
export const CERTIFICATE_WARN_DAYS = 14;

interface HoldPart {
  text: string;
  color: string;
}

export function holdParts(c: CheckStatus, theme: Theme, now: number): HoldPart[] {
  const parts: HoldPart[] = [];
  const window = c.maintenance;
  if (window) {
    const left = formatSpan(Math.max(0, Date.parse(window.endsAt) - now));
    const mark = window.mode === 'pause' ? theme.hold.paused : theme.hold.silenced;
    parts.push({ text: `${mark} ${left}`, color: 'magenta' });
  }
  // A window's hold is already said above, with its time left.
  const by = c.heldBy;
  if (by && !(by.kind === 'maintenance' && window))
    parts.push({ text: `${theme.hold.held} ${heldTag(by, theme.ellipsis)}`, color: 'magenta' });
  if (c.paused) parts.push({ text: `${theme.hold.paused} ${sanitize(c.paused.by)}`, color: theme.accent });
  const cert = c.certificate;
  if (cert && cert.daysRemaining < CERTIFICATE_WARN_DAYS) {
    const days = cert.daysRemaining < 0 ? 'expired' : `${cert.daysRemaining}d`;
    parts.push({
      text: `${theme.hold.certificate} ${days}`,
      color: cert.daysRemaining < 7 ? 'red' : 'yellow',
    });
  }
  return parts;
}

/** Whether anything holds the check (cheap: no text built). */
export const held = (c: CheckStatus): boolean =>
  !!c.maintenance ||
  !!c.heldBy ||
  !!c.paused ||
  (!!c.certificate && c.certificate.daysRemaining < CERTIFICATE_WARN_DAYS);

/** The HOLD cell: every part, coloured as the most pressing (the first). */
export function holdCell(c: CheckStatus, theme: Theme, now: number): Cell {
  const parts = holdParts(c, theme, now);
  return { text: parts.map((p) => p.text).join(' '), color: parts[0]?.color };
}
