// The half-block renderer against a small known picture: which colour lands in
// which half of which cell, scaling, both colour depths, and lines whose width
// Ink measures as their cells.
import { PNG } from 'pngjs';
import stringWidth from 'string-width';
import stripAnsi from 'strip-ansi';
import { describe, expect, it } from 'vitest';
import { decodePng } from '../../../src/ui/widgets/half-block/decode.js';
import {
  colorDepth,
  fitSize,
  halfBlockCells,
  halfBlockLines,
  xterm256,
  type Rgb,
  type RgbaImage,
} from '../../../src/ui/widgets/half-block/half-block.js';

const RED: Rgb = [255, 0, 0];
const GREEN: Rgb = [0, 255, 0];
const BLUE: Rgb = [0, 0, 255];
const WHITE: Rgb = [255, 255, 255];

/** A 4x4 PNG in quadrants: red | green over blue | white. */
function quadrants(): Buffer {
  const png = new PNG({ width: 4, height: 4 });
  for (let y = 0; y < 4; y++)
    for (let x = 0; x < 4; x++) {
      const c = y < 2 ? (x < 2 ? RED : GREEN) : x < 2 ? BLUE : WHITE;
      png.data.set([...c, 255], (y * 4 + x) * 4);
    }
  return PNG.sync.write(png);
}

const image = () => decodePng(quadrants()) as RgbaImage;

describe('half-block picture', () => {
  it('decodes a PNG, and says when bytes are not one', () => {
    expect(image()).toMatchObject({ width: 4, height: 4 });
    expect(decodePng(Uint8Array.from([1, 2, 3]))).toBeInstanceOf(Error);
  });

  it('puts the upper pixel in the foreground and the lower in the background, two rows a cell', () => {
    const cells = halfBlockCells(image(), 80, 24); // room enough: never enlarged
    expect(cells).toHaveLength(2);
    expect(cells[0]!.map((c) => [c.top, c.bottom])).toEqual([
      [RED, RED],
      [RED, RED],
      [GREEN, GREEN],
      [GREEN, GREEN],
    ]);
    expect(cells[1]!.map((c) => [c.top, c.bottom])).toEqual([
      [BLUE, BLUE],
      [BLUE, BLUE],
      [WHITE, WHITE],
      [WHITE, WHITE],
    ]);
  });

  it('scales down to fit, keeping the shape, each pixel the mean of its block', () => {
    expect(fitSize(image(), 2, 24)).toEqual({ width: 2, height: 2 });
    const cells = halfBlockCells(image(), 2, 1);
    expect(cells).toEqual([
      [
        { top: RED, bottom: BLUE },
        { top: GREEN, bottom: WHITE },
      ],
    ]);
    // One cell: the upper half is the mean of red and green, the lower of blue and white.
    expect(halfBlockCells(image(), 1, 1)).toEqual([[{ top: [128, 128, 0], bottom: [128, 128, 255] }]]);
    expect(fitSize({ width: 1280, height: 800, data: new Uint8Array() }, 80, 20)).toEqual({
      width: 64,
      height: 40,
    });
  });

  it('writes 24-bit colours, each only when it changes, and resets at the end of every line', () => {
    expect(halfBlockLines(image(), 2, 1, 'truecolor')).toEqual([
      '\u001b[38;2;255;0;0;48;2;0;0;255m▀\u001b[38;2;0;255;0;48;2;255;255;255m▀\u001b[0m',
    ]);
    expect(halfBlockLines(image(), 4, 2, 'truecolor')[0]).toBe(
      '\u001b[38;2;255;0;0;48;2;255;0;0m▀▀\u001b[38;2;0;255;0;48;2;0;255;0m▀▀\u001b[0m',
    );
  });

  it('writes the nearest colours of the 256-colour palette otherwise', () => {
    expect(halfBlockLines(image(), 2, 1, '256')).toEqual([
      '\u001b[38;5;196;48;5;21m▀\u001b[38;5;46;48;5;231m▀\u001b[0m',
    ]);
    expect([xterm256([0, 0, 0]), xterm256([128, 128, 128]), xterm256([95, 135, 175])]).toEqual([16, 244, 67]);
  });

  it('makes lines Ink measures as one column a cell, with nothing but half blocks visible', () => {
    const lines = halfBlockLines(image(), 4, 2, '256');
    for (const line of lines) {
      expect(stringWidth(line)).toBe(4);
      expect(stripAnsi(line)).toBe('▀▀▀▀');
    }
  });

  it('takes truecolor from COLORTERM, and draws nothing under NO_COLOR or --ascii', () => {
    expect(colorDepth({ COLORTERM: 'truecolor' })).toBe('truecolor');
    expect(colorDepth({ COLORTERM: '24bit' })).toBe('truecolor');
    expect(colorDepth({})).toBe('256');
    expect(colorDepth({ NO_COLOR: '1', COLORTERM: 'truecolor' })).toBeNull();
    expect(colorDepth({ COLORTERM: 'truecolor' }, true)).toBeNull();
  });
});
