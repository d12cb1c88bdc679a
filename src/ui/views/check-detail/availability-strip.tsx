// 30 days of the check's availability, one cell a day (the service's daily
// roll-ups), coloured and shaped by how available the day was, with its legend.
// Too narrow for 30 cells and the legend: the last N days, and it says so.
import { Text } from 'ink';
import { useStore } from 'zustand';
import { sanitize } from '../../../domain/sanitize.js';
import { remoteOf } from '../../../store/check-record-slice.js';
import type { ConsoleStore } from '../../../store/state.js';
import { remoteData } from '../../../store/detail-slice.js';
import type { CheckHistoryBucket } from '../../../store/types.js';
import { tint, useTheme, type Theme } from '../../theme.js';

interface Band {
  /** Availability at least this (percent). */
  min: number;
  glyph: string;
  ascii: string;
  color: string;
  label: string;
}

/** Best first; a day goes in the first band it reaches. */
export const BANDS: readonly Band[] = [
  { min: 99.9, glyph: '█', ascii: '#', color: 'green', label: '≥99.9' },
  { min: 99, glyph: '▓', ascii: '+', color: 'green', label: '≥99' },
  { min: 95, glyph: '▒', ascii: ':', color: 'yellow', label: '≥95' },
  { min: 0, glyph: '░', ascii: '.', color: 'red', label: '<95' },
];

export const STRIP_DAYS = 30;

/** The band of a day, or null when it had no runs. */
export function bandOf(bucket: Pick<CheckHistoryBucket, 'runs' | 'availability'>): Band | null {
  if (bucket.runs === 0 || bucket.availability === null) return null;
  return BANDS.find((b) => bucket.availability! >= b.min) ?? BANDS[BANDS.length - 1]!;
}

const legend = (theme: Theme) =>
  `${BANDS.map((b) => `${theme.ascii ? b.ascii : b.glyph}${b.label}`).join(' ')} ${theme.none}none`;

/** How many days fit beside the label and the legend in `width` columns. */
export function daysThatFit(width: number, theme: Theme): number {
  const room = width - 'last 30 days '.length - 2 - legend(theme).length - 1;
  return Math.max(1, Math.min(STRIP_DAYS, room));
}

export function AvailabilityStrip({ store, checkId }: { store: ConsoleStore; checkId: string }) {
  const theme = useTheme();
  const cols = useStore(store, (s) => s.cols);
  const remote = useStore(store, (s) => remoteOf(s.dailyHistory, checkId));
  const list = remote ? remoteData(remote) : undefined;
  const days = daysThatFit(cols, theme);
  const label = days === STRIP_DAYS ? `${STRIP_DAYS} days ` : `last ${days} days `;
  if (!list) {
    const why = remote?.state === 'error' ? `could not load: ${sanitize(remote.error.message)}` : 'loading…';
    return (
      <Text wrap="truncate">
        {label}
        <Text color={tint(theme, theme.dim)}>{why}</Text>
      </Text>
    );
  }
  const buckets = list.data.filter((b) => b.locationId === null).slice(-days);
  return (
    <Text wrap="truncate">
      {label}
      {buckets.map((b) => {
        const band = bandOf(b);
        return band ? (
          <Text key={b.start} color={tint(theme, band.color)}>
            {theme.ascii ? band.ascii : band.glyph}
          </Text>
        ) : (
          <Text key={b.start} color={tint(theme, theme.dim)}>
            {theme.none}
          </Text>
        );
      })}
      <Text color={tint(theme, theme.dim)}>{`  ${legend(theme)}`}</Text>
    </Text>
  );
}
