// URLs the console opens, copies or draws as links (docs/console.md, "Links"):
// only http(s), and never one holding a control character, so a URL from the
// network cannot end an OSC 8 or an OSC 52 early and write its own escapes.
// Whether the terminal draws OSC 8 follows the supports-hyperlinks rules.

/* eslint-disable no-control-regex -- refusing control characters is this module's job */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** The URL when it may be opened, linked or copied as a link; null otherwise. */
export function safeLinkUrl(raw: string | null | undefined): string | null {
  if (!raw || CONTROL.test(raw)) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  return raw;
}

/**
 * A public dashboard's status page on the service (docs/status-page.md: `/status/{customUrl}`,
 * which answers on the service's own address whatever its custom domain).
 */
export function statusPageUrl(baseUrl: string, customUrl: string): string | null {
  return safeLinkUrl(`${baseUrl.replace(/\/+$/, '')}/status/${encodeURIComponent(customUrl)}`);
}

// Ended by BEL, not ST: Ink's line buffer (@alcalzone/ansi-tokenize) reads only that form as a
// link; an ST-ended one it counts as visible characters, and a right-aligned part of the same
// row (the header's connection state) was drawn over the link's bytes. Terminals take either.
const OSC8 = (url: string) => `\u001b]8;;${url}\u0007`;

/** `text` as an OSC 8 hyperlink to `url`, closed after it; the text alone when the URL is refused. */
export function hyperlink(url: string, text: string): string {
  const safe = safeLinkUrl(url);
  return safe ? `${OSC8(safe)}${text}${OSC8('')}` : text;
}

/** Terminals (TERM_PROGRAM) that draw OSC 8 from this version on. */
const MIN_PROGRAM_VERSION: Record<string, [number, number, number]> = {
  'iTerm.app': [3, 1, 0],
  WezTerm: [20200620, 0, 0],
  vscode: [1, 72, 0],
  ghostty: [0, 0, 0],
};

/** `major.minor.patch` of a version string, missing parts 0. */
function version(text: string | undefined): [number, number, number] {
  const [a = 0, b = 0, c = 0] = (text ?? '').split('.').map((p) => Number.parseInt(p, 10) || 0);
  return [a, b, c];
}
const atLeast = (v: [number, number, number], min: [number, number, number]) =>
  v[0] !== min[0] ? v[0] > min[0] : v[1] !== min[1] ? v[1] > min[1] : v[2] >= min[2];

/**
 * Whether to draw OSC 8 links: `--no-links` never; FORCE_HYPERLINK set decides (0 off, else
 * on); otherwise a terminal known to draw them, not under tmux or screen (tmux before 3.4 drops
 * them unless told) and not in CI.
 */
export function hyperlinksWanted(flagOff: boolean, env: NodeJS.ProcessEnv, isTTY: boolean): boolean {
  if (flagOff) return false;
  const force = env['FORCE_HYPERLINK'];
  if (force !== undefined) return !(force.length > 0 && Number.parseInt(force, 10) === 0);
  if (!isTTY || env['CI'] || env['NETLIFY'] || env['TEAMCITY_VERSION']) return false;
  if (env['TMUX'] || env['STY'] || env['TERM']?.startsWith('screen')) return false;
  if (env['WT_SESSION'] || env['DOMTERM']) return true;
  if (env['VTE_VERSION'] && Number.parseInt(env['VTE_VERSION'], 10) >= 5000) return true;
  if (env['KONSOLE_VERSION'] && Number.parseInt(env['KONSOLE_VERSION'], 10) >= 210400) return true;
  if (env['TERM'] === 'xterm-kitty' || env['TERM'] === 'alacritty' || env['TERM'] === 'xterm-ghostty')
    return true;
  const minimum = MIN_PROGRAM_VERSION[env['TERM_PROGRAM'] ?? ''];
  return minimum !== undefined && atLeast(version(env['TERM_PROGRAM_VERSION']), minimum);
}
