// Colours and glyphs. Status always reads without colour (glyph + word); the
// ASCII set serves terminals without box drawing or unicode; with colour off,
// components pass no colour at all.
import { createContext, useContext } from 'react';
import { NO_DATA } from '../domain/format.js';
import type { CheckStatusValue, Trend } from '../store/types.js';

export interface Theme {
  color: boolean;
  ascii: boolean;
  status: Record<CheckStatusValue, { glyph: string; word: string; color: string }>;
  trend: Record<Trend, string>;
  mark: Record<CheckStatusValue, string>;
  selected: string;
  incident: string;
  /** A failing check whose alert could not be delivered. */
  undelivered: string;
  /** Why a check is held (the HOLD column, the wall): one terminal cell each, no emoji. */
  hold: { paused: string; silenced: string; certificate: string; held: string };
  ellipsis: string;
  /** An empty cell: no data. */
  none: string;
  rule: string;
  bar: string;
  dim: string;
  accent: string;
  /** Every colour drawn grey: what is shown is old (a stale wall); see `muted`. */
  muted?: boolean;
  /** Draw URLs as OSC 8 hyperlinks (domain/links.ts says when the terminal does). */
  links: boolean;
}

export function createTheme({
  color,
  ascii,
  links = false,
}: {
  color: boolean;
  ascii: boolean;
  links?: boolean;
}): Theme {
  return {
    color,
    ascii,
    links,
    status: {
      failing: { glyph: ascii ? 'X' : '✖', word: 'FAILING', color: 'red' },
      degraded: { glyph: ascii ? '!' : '▲', word: 'DEGRADED', color: 'yellow' },
      unknown: { glyph: '?', word: 'UNKNOWN', color: 'gray' },
      passing: { glyph: ascii ? '+' : '✔', word: 'passing', color: 'green' },
    },
    trend: ascii
      ? { improving: 'v', stable: '=', degrading: '^' }
      : { improving: '↘', stable: '→', degrading: '↗' },
    mark: ascii
      ? { failing: 'X', degraded: '!', unknown: '?', passing: '+' }
      : { failing: '✖', degraded: '▲', unknown: '·', passing: '●' },
    selected: ascii ? '>' : '›',
    // Not "!" in ASCII: that is degraded's mark there.
    incident: ascii ? '*' : '!',
    undelivered: ascii ? '@' : '✉',
    hold: ascii
      ? { paused: 'P', silenced: 'S', certificate: 'C', held: 'H' }
      : { paused: '‖', silenced: '∅', certificate: '◔', held: '⤷' },
    ellipsis: ascii ? '~' : '…',
    none: ascii ? '-' : NO_DATA,
    rule: ascii ? '-' : '─',
    bar: ascii ? '#' : '█',
    dim: 'gray',
    accent: 'cyan',
  };
}

export const ThemeContext = createContext<Theme>(createTheme({ color: true, ascii: false }));
export const useTheme = () => useContext(ThemeContext);

/** The colour prop to pass: undefined when colour is off, so Ink writes no colour codes; grey when muted. */
export function tint(theme: Theme, color: string | undefined): string | undefined {
  if (!theme.color) return undefined;
  return theme.muted ? theme.dim : color;
}

/**
 * The theme for data that is no longer live: every colour grey, and where grey
 * cannot be told (no colour, or `--ascii`) the wall brackets its big digits instead.
 */
export const muted = (theme: Theme): Theme => ({ ...theme, muted: true });

/** Whether a muted part says so in brackets: no colour to grey it, or ASCII mode. */
export const bracketed = (theme: Theme): boolean => !!theme.muted && (!theme.color || theme.ascii);

/** A formatted value as the theme shows it: the domain's "no data" mark becomes the theme's (ASCII in --ascii). */
export const shown = (theme: Theme, text: string): string => (text === NO_DATA ? theme.none : text);
