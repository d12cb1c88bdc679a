// Text from the network is drawn (or logged) only after this: escape sequences and control
// characters are removed so a check name cannot move the cursor, retitle the
// terminal or hide text; widths count wide characters as two columns.

/* eslint-disable no-control-regex, no-misleading-character-class -- matching control characters and combining marks is this module's job */
// CSI … final byte, OSC … BEL/ST, DCS/SOS/PM/APC … ST, and two-byte ESC sequences.
const ESCAPES =
  /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[PX^_][^\u001b]*(?:\u001b\\)?|\u001b[@-Z\\-_]?|\u009b[0-?]*[ -/]*[@-~]/g;
// C0 (but tab and newline, handled below), DEL, C1, and the invisible ones that make a
// name look like another: zero-width space, (non-)joiners and direction marks
// (U+200B-U+200F), the Arabic letter mark (U+061C), bidi embeddings, overrides and isolates.
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g;

/** One line of safe text: escapes and controls gone, tabs and newlines become spaces. */
export function sanitize(text: string): string {
  return text
    .replace(ESCAPES, '')
    .replace(CONTROLS, '')
    .replace(/[\t\n\r]/g, ' ');
}

/** The text without its control characters (tabs and newlines kept), one by one: a quote stays. */
export const stripControls = (text: string): string => text.replace(CONTROLS, '');

/** Safe text that keeps its lines: tabs become two spaces. */
export function sanitizeMultiline(text: string): string {
  return text.replace(ESCAPES, '').replace(/\r\n?/g, '\n').replace(CONTROLS, '').replace(/\t/g, '  ');
}

// East Asian wide and fullwidth ranges, and the emoji blocks, as [start, end].
const WIDE: ReadonlyArray<readonly [number, number]> = [
  [0x1100, 0x115f],
  [0x231a, 0x231b],
  [0x2329, 0x232a],
  [0x23e9, 0x23ec],
  [0x23f0, 0x23f0],
  [0x23f3, 0x23f3],
  [0x25fd, 0x25fe],
  [0x2614, 0x2615],
  [0x2648, 0x2653],
  [0x267f, 0x267f],
  [0x2693, 0x2693],
  [0x26a1, 0x26a1],
  [0x26aa, 0x26ab],
  [0x26bd, 0x26be],
  [0x26c4, 0x26c5],
  [0x26ce, 0x26ce],
  [0x26d4, 0x26d4],
  [0x26ea, 0x26ea],
  [0x26f2, 0x26f3],
  [0x26f5, 0x26f5],
  [0x26fa, 0x26fa],
  [0x26fd, 0x26fd],
  [0x2705, 0x2705],
  [0x270a, 0x270b],
  [0x2728, 0x2728],
  [0x274c, 0x274c],
  [0x274e, 0x274e],
  [0x2753, 0x2755],
  [0x2757, 0x2757],
  [0x2795, 0x2797],
  [0x27b0, 0x27b0],
  [0x27bf, 0x27bf],
  [0x2b1b, 0x2b1c],
  [0x2b50, 0x2b50],
  [0x2b55, 0x2b55],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xa960, 0xa97f],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe10, 0xfe19],
  [0xfe30, 0xfe6f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x1f004, 0x1f004],
  [0x1f0cf, 0x1f0cf],
  [0x1f18e, 0x1f18e],
  [0x1f191, 0x1f19a],
  [0x1f200, 0x1f251],
  [0x1f300, 0x1f64f],
  [0x1f680, 0x1f6ff],
  [0x1f7e0, 0x1f7eb],
  [0x1f900, 0x1f9ff],
  [0x1fa70, 0x1faff],
  [0x20000, 0x3fffd],
];
const ZERO =
  /[\u0300-\u036f\u0483-\u0489\u0591-\u05bd\u0610-\u061a\u064b-\u065f\u0e31\u0e34-\u0e3a\u200b-\u200f\u20d0-\u20ff\ufe00-\ufe0f\ufe20-\ufe2f\u{e0100}-\u{e01ef}]/u;

export function charWidth(ch: string): number {
  const cp = ch.codePointAt(0) ?? 0;
  if (cp === 0x200d || ZERO.test(ch)) return 0;
  if (cp < 0x1100) return 1;
  let lo = 0;
  let hi = WIDE.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [a, b] = WIDE[mid]!;
    if (cp < a) hi = mid - 1;
    else if (cp > b) lo = mid + 1;
    else return 2;
  }
  return 1;
}

// Below U+0300 (where combining marks begin) every character is one cell: most
// text on screen, measured at once (a table measures every row of its columns).
const ONE_CELL_EACH = /^[\u0000-\u02ff]*$/;

export function displayWidth(text: string): number {
  if (ONE_CELL_EACH.test(text)) return text.length;
  let width = 0;
  for (const ch of text) width += charWidth(ch);
  return width;
}

/** Cuts to at most `width` columns, ending in the ellipsis when it cut. */
export function truncate(text: string, width: number, ellipsis = '…'): string {
  if (width <= 0) return '';
  if (displayWidth(text) <= width) return text;
  const room = width - displayWidth(ellipsis);
  let out = '';
  let used = 0;
  for (const ch of text) {
    const w = charWidth(ch);
    if (used + w > room) break;
    out += ch;
    used += w;
  }
  return room < 0 ? ellipsis.slice(0, width) : out + ellipsis;
}

/** Truncates and pads with spaces to exactly `width` columns. */
export function fit(text: string, width: number, ellipsis = '…', align: 'left' | 'right' = 'left'): string {
  const cut = truncate(text, width, ellipsis);
  const pad = ' '.repeat(Math.max(0, width - displayWidth(cut)));
  return align === 'left' ? cut + pad : pad + cut;
}

/** The lines a text takes wrapped at `width` columns, counted by its width (0 for none). */
export const wrappedLineCount = (text: string, width: number): number =>
  Math.ceil(displayWidth(text) / Math.max(1, width));

/**
 * Safe text wrapped onto lines of at most `width` columns, at spaces where it
 * can and anywhere where a word is longer than a line: nothing cut off.
 */
export function wrapText(text: string, width: number): string[] {
  const room = Math.max(1, width);
  const lines: string[] = [];
  for (const paragraph of sanitizeMultiline(text).split('\n')) {
    let line = '';
    let used = 0;
    for (const word of paragraph.split(/(?<= )/)) {
      const w = displayWidth(word);
      if (used + w > room && line.trim() !== '') {
        lines.push(line.trimEnd());
        line = '';
        used = 0;
      }
      for (const ch of word) {
        const cw = charWidth(ch);
        if (used + cw > room) {
          lines.push(line.trimEnd());
          line = '';
          used = 0;
        }
        line += ch;
        used += cw;
      }
    }
    lines.push(line.trimEnd());
  }
  return lines;
}
