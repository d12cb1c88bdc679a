// The picture kept with a browser run: the viewport as PNG, at most
// MAX_SCREENSHOT_BYTES. A larger one (a busy page compresses badly) is halved
// until it fits: a smaller picture of the whole view beats a cropped one.
import { PNG } from 'pngjs';
import type { Page } from 'playwright-core';
import { within } from './browser-pool.js';

export const MAX_SCREENSHOT_BYTES = 300 * 1024;
/** A page that cannot paint within this long is left without a picture; the run has ended already. */
const SCREENSHOT_MS = 5_000;

/**
 * The page as it is now, or undefined when the browser cannot say (crashed, hung).
 * Through DevTools' own capture rather than page.screenshot: Playwright's waits
 * for a navigation in progress to produce a frame, and a run that timed out
 * loading is exactly the one whose picture matters.
 */
export async function screenshot(page: Page): Promise<Buffer | undefined> {
  const capture = async () => {
    const session = await page.context().newCDPSession(page);
    const { data } = await session.send('Page.captureScreenshot', { format: 'png' });
    return Buffer.from(data, 'base64');
  };
  const png = await within(capture(), SCREENSHOT_MS, 'screenshot').catch(() => undefined);
  return png && fitPng(png, MAX_SCREENSHOT_BYTES);
}

/** `png` as it is when it fits in `maxBytes`, else scaled down by halves until it does. */
export function fitPng(png: Buffer, maxBytes: number): Buffer {
  let out = png;
  let image: PNG = PNG.sync.read(png);
  while (out.length > maxBytes && image.width > 1 && image.height > 1) {
    image = halve(image);
    out = PNG.sync.write(image, { colorType: 2 });
  }
  return out;
}

/** Each output pixel the average of a 2x2 block (a box filter: no aliasing of text and lines). */
function halve(src: PNG): PNG {
  const width = Math.floor(src.width / 2);
  const height = Math.floor(src.height / 2);
  const dst = new PNG({ width, height });
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      for (let c = 0; c < 4; c++) {
        const at = (dx: number, dy: number) => src.data[((2 * y + dy) * src.width + 2 * x + dx) * 4 + c]!;
        dst.data[(y * width + x) * 4 + c] = (at(0, 0) + at(1, 0) + at(0, 1) + at(1, 1)) >> 2;
      }
    }
  }
  return dst;
}
