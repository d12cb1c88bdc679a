// What the marks on screen mean, as data: the ? overlay lists each with its
// --ascii form, so a new mark (paused, silenced, certificate expiring) is one
// line here.
import type { Theme } from './theme.js';

export interface LegendEntry {
  /** The mark as a theme draws it (called with the unicode and the ASCII theme). */
  mark: (theme: Theme) => string;
  meaning: string;
}

export const LEGEND: readonly LegendEntry[] = [
  { mark: (t) => t.mark.passing, meaning: 'a location passing (LOC column; wall grid)' },
  { mark: (t) => t.mark.degraded, meaning: 'degraded: slower than its threshold' },
  { mark: (t) => t.mark.failing, meaning: 'failing' },
  { mark: (t) => t.mark.unknown, meaning: 'unknown: no run to judge yet' },
  { mark: (t) => t.incident, meaning: 'an open incident (the column after STATUS)' },
  { mark: (t) => t.undelivered, meaning: 'a failing check whose page could not be delivered' },
  {
    mark: (t) => t.hold.paused,
    meaning: 'HOLD: paused, by a person (who) or a maintenance window (time left)',
  },
  { mark: (t) => t.hold.silenced, meaning: 'HOLD: a maintenance window silences its alerts (time left)' },
  {
    mark: (t) => t.hold.held,
    meaning: 'HOLD: its pages are held: a check it depends on, or its location, is down (the id)',
  },
  {
    mark: (t) => t.hold.certificate,
    meaning: 'HOLD: its TLS certificate expires within 14 days (days left)',
  },
  {
    mark: (t) => `${t.trend.degrading}${t.trend.stable}${t.trend.improving}`,
    meaning: 'TR: response time trend: degrading, stable, improving',
  },
];

/** "●  +   a location passing …": the mark, its --ascii form, what it means. */
export function legendLines(unicode: Theme, ascii: Theme): string[] {
  return LEGEND.map((e) => `${e.mark(unicode).padEnd(4)} ${e.mark(ascii).padEnd(4)} ${e.meaning}`);
}
