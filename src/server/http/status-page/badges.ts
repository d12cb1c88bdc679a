// Two-part SVG badges (label | value) for a check on a public dashboard: its
// status, its availability over a period, its response time. Text is escaped
// (esc) and the width estimated from the characters: no font is measured.
import type { PublicCheckStatus } from '../../../api/schemas/index.js';
import { esc } from './page.js';

const COLOURS = { ok: '#146c2e', warn: '#7a4d00', bad: '#b3261e', none: '#4b5261', label: '#30363d' };
const CHAR_PX = 7;
const SIDE_PX = 10;

export function badge(label: string, value: string, colour: keyof typeof COLOURS): string {
  const lw = label.length * CHAR_PX + SIDE_PX;
  const vw = value.length * CHAR_PX + SIDE_PX;
  const w = lw + vw;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="20" role="img" aria-label="${esc(`${label}: ${value}`)}">
<title>${esc(`${label}: ${value}`)}</title>
<rect width="${lw}" height="20" fill="${COLOURS.label}"/>
<rect x="${lw}" width="${vw}" height="20" fill="${COLOURS[colour]}"/>
<g fill="#ffffff" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11" text-anchor="middle">
<text x="${lw / 2}" y="14">${esc(label)}</text>
<text x="${lw + vw / 2}" y="14">${esc(value)}</text>
</g>
</svg>
`;
}

const STATUS_BADGE = {
  passing: ['operational', 'ok'],
  degraded: ['degraded', 'warn'],
  failing: ['down', 'bad'],
  unknown: ['no data', 'none'],
} as const;

export function statusBadge(check: PublicCheckStatus): string {
  const [word, colour] = STATUS_BADGE[check.status];
  return badge(check.checkName, word, colour);
}

export function uptimeBadge(period: string, availability: number | null): string {
  if (availability === null) return badge(`uptime ${period}`, 'no data', 'none');
  const colour = availability >= 99.5 ? 'ok' : availability >= 95 ? 'warn' : 'bad';
  return badge(`uptime ${period}`, `${Math.floor(availability * 100) / 100}%`, colour);
}

export function responseTimeBadge(ms: number | null): string {
  if (ms === null) return badge('response time', 'no data', 'none');
  return badge('response time', `${Math.round(ms)} ms`, ms < 1000 ? 'ok' : ms < 3000 ? 'warn' : 'bad');
}
