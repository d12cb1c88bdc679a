// A picture in the terminal with half blocks: each cell is one `▀` whose
// foreground is the upper pixel and whose background the lower, so a cell
// holds two pixels and a cell's 1:2 shape makes them square. Pure: an RGBA
// image in, lines of text with SGR colours out, each line ending in a reset so
// no colour leaks into the next row the screen writer draws. Ink measures
// these lines by their visible characters (string-width strips SGR), one
// column a cell.

/** Decoded pixels, 4 bytes (RGBA) a pixel, rows top to bottom. */
export interface RgbaImage {
  width: number;
  height: number;
  data: Uint8Array;
}

export type Rgb = readonly [number, number, number];
export interface Cell {
  top: Rgb;
  bottom: Rgb;
}
/** 24-bit SGR where the terminal says it has it, else the xterm 256-colour palette. */
export type ColorDepth = 'truecolor' | '256';

const HALF_BLOCK = '▀';
const ESC = '\u001b[';
const RESET = `${ESC}0m`;

/** The terminal's colours from its environment; null when colour is off (NO_COLOR, --ascii). */
export function colorDepth(env: NodeJS.ProcessEnv, ascii = false): ColorDepth | null {
  if (ascii || (env['NO_COLOR'] ?? '') !== '') return null;
  const colorterm = (env['COLORTERM'] ?? '').toLowerCase();
  return colorterm === 'truecolor' || colorterm === '24bit' ? 'truecolor' : '256';
}

/** The picture's size in pixels to fit `cols` x `rows` cells, keeping its shape; never enlarged. */
export function fitSize(image: RgbaImage, cols: number, rows: number): { width: number; height: number } {
  const scale = Math.min(1, cols / image.width, (2 * rows) / image.height);
  const width = Math.max(1, Math.floor(image.width * scale));
  const height = Math.max(2, 2 * Math.floor((image.height * scale) / 2));
  return { width, height };
}

/** The cells of the picture scaled to fit `cols` x `rows`; each pixel the average of the area it covers. */
export function halfBlockCells(image: RgbaImage, cols: number, rows: number): Cell[][] {
  const { width, height } = fitSize(image, cols, rows);
  const pixel = (x: number, y: number) => average(image, x, y, image.width / width, image.height / height);
  const lines: Cell[][] = [];
  for (let y = 0; y < height; y += 2) {
    const line: Cell[] = [];
    for (let x = 0; x < width; x++) line.push({ top: pixel(x, y), bottom: pixel(x, y + 1) });
    lines.push(line);
  }
  return lines;
}

/** The mean colour of the source block under output pixel (x, y), over black where transparent. */
function average(image: RgbaImage, x: number, y: number, sx: number, sy: number): Rgb {
  const x0 = Math.floor(x * sx);
  const y0 = Math.floor(y * sy);
  const x1 = Math.min(image.width, Math.max(x0 + 1, Math.floor((x + 1) * sx)));
  const y1 = Math.min(image.height, Math.max(y0 + 1, Math.floor((y + 1) * sy)));
  let r = 0;
  let g = 0;
  let b = 0;
  for (let yy = y0; yy < y1; yy++) {
    for (let xx = x0; xx < x1; xx++) {
      const i = (yy * image.width + xx) * 4;
      const a = image.data[i + 3]! / 255;
      r += image.data[i]! * a;
      g += image.data[i + 1]! * a;
      b += image.data[i + 2]! * a;
    }
  }
  const n = (x1 - x0) * (y1 - y0);
  return [Math.round(r / n), Math.round(g / n), Math.round(b / n)];
}

/** One line of text a row of cells; a colour is written only when it changes. */
export function cellLines(cells: readonly Cell[][], depth: ColorDepth): string[] {
  const sgr = (layer: 38 | 48, c: Rgb) =>
    depth === 'truecolor' ? `${layer};2;${c[0]};${c[1]};${c[2]}` : `${layer};5;${xterm256(c)}`;
  return cells.map((line) => {
    let out = '';
    let fg = '';
    let bg = '';
    for (const cell of line) {
      const [f, b] = [sgr(38, cell.top), sgr(48, cell.bottom)];
      const codes = [f !== fg ? f : '', b !== bg ? b : ''].filter(Boolean).join(';');
      if (codes) out += `${ESC}${codes}m`;
      [fg, bg] = [f, b];
      out += HALF_BLOCK;
    }
    return out + RESET;
  });
}

export function halfBlockLines(image: RgbaImage, cols: number, rows: number, depth: ColorDepth): string[] {
  return cellLines(halfBlockCells(image, cols, rows), depth);
}

const CUBE = [0, 95, 135, 175, 215, 255];

/** The nearest colour of the xterm palette's 6x6x6 cube (16-231) or grey ramp (232-255). */
export function xterm256([r, g, b]: Rgb): number {
  const nearest = (v: number) =>
    CUBE.reduce((best, c, i) => (Math.abs(c - v) < Math.abs(CUBE[best]! - v) ? i : best), 0);
  const [ri, gi, bi] = [nearest(r), nearest(g), nearest(b)];
  const cube = 16 + 36 * ri + 6 * gi + bi;
  // The ramp runs 8, 18, ... 238 in steps of 10.
  const grey = Math.min(23, Math.max(0, Math.round(((r + g + b) / 3 - 8) / 10)));
  const level = 8 + 10 * grey;
  const dist = (c: Rgb) => (c[0] - r) ** 2 + (c[1] - g) ** 2 + (c[2] - b) ** 2;
  return dist([level, level, level]) < dist([CUBE[ri]!, CUBE[gi]!, CUBE[bi]!]) ? 232 + grey : cube;
}
