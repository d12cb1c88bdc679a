// A browser run's screenshot in a real terminal: `i` draws it with half blocks
// inside the result view (no escape shown as text, the header and footer in
// place), `o` saves the PNG; without colour only the save is offered.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PNG } from 'pngjs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, TEST_ACCOUNT, TEST_KEY, type TestService } from '../helpers/service.js';
import { hasTmux, startTerminal, type Terminal } from '../helpers/tmux.js';

let term: Terminal | undefined;
afterEach(() => term?.kill());

/** 160x100: the upper half red, the lower half blue. */
function picture(): Buffer {
  const png = new PNG({ width: 160, height: 100 });
  for (let y = 0; y < 100; y++)
    for (let x = 0; x < 160; x++)
      png.data.set(y < 50 ? [255, 0, 0, 255] : [0, 0, 255, 255], (y * 160 + x) * 4);
  return PNG.sync.write(png);
}

const BIN = resolve('bin/checkwall.js');
const selected = (screen: string) => screen.split('\n').find((l) => l.startsWith('›')) ?? '';
const pictureRows = (screen: string) => screen.split('\n').filter((l) => l.includes('▀'));

describe.skipIf(!hasTmux)('screenshots in tmux', () => {
  let svc: TestService;
  const png = picture();
  beforeAll(async () => {
    svc = await startTestService({ checks: 3 });
    const [failed] = await svc.seed('c2', ['failed']);
    // The latest failed run, the one F opens, is a browser run's with a picture.
    const at = new Date(Date.parse(failed!.startedAt) + 500).toISOString();
    await svc.record(TEST_ACCOUNT, {
      ...failed!,
      id: randomUUID(),
      startedAt: at,
      finishedAt: at,
      hasScreenshot: true,
      screenshot: png,
    });
  });
  afterAll(() => svc.close());

  const open = async (env: Record<string, string>) => {
    const dir = mkdtempSync(join(tmpdir(), 'checkwall-shot-'));
    term = startTerminal(`sh -c 'cd ${dir} && exec ${process.execPath} ${BIN} console --refresh 2'`, {
      cols: 100,
      rows: 30,
      env: {
        CHECKWALL_BASE_URL: svc.url,
        CHECKWALL_API_KEY: TEST_KEY,
        CHECKWALL_ACCOUNT_ID: TEST_ACCOUNT,
        XDG_CONFIG_HOME: '/nonexistent-checkwall',
        ...env,
      },
    });
    await term.waitFor('Check 0002', 30_000);
    term.sendKeys('/');
    term.type('0002');
    term.sendKeys('Enter');
    await expect.poll(() => selected(term!.capture())).toContain('Check 0002');
    term.sendKeys('F');
    return dir;
  };

  it('draws the picture with i in truecolor, saves it with o, and i again gives the text back', async () => {
    const dir = await open({ COLORTERM: 'truecolor' });
    const before = await term!.waitFor('screenshot: i shows it, o saves it');
    const header = before.split('\n')[0]!;
    term!.sendKeys('i');
    const screen = await term!.waitFor('screenshot: i hides it');
    await expect.poll(() => pictureRows(term!.capture()).length).toBeGreaterThan(10);
    const shown = term!.capture();
    const rows = pictureRows(shown);
    // One block of whole rows of half blocks, nothing else on them, inside the 100 columns.
    for (const row of rows) expect(row.trim()).toMatch(/^▀+$/);
    expect(new Set(rows.map((r) => r.trim().length)).size).toBe(1);
    expect(rows[0]!.trim().length).toBeLessThanOrEqual(98);
    // No escape reached the screen as text; the header and the footer are where they were.
    expect(shown).not.toMatch(/\[(38|48);|;2;\d+;/);
    expect(shown).not.toContain('\u001b');
    expect(shown.split('\n')[0]).toBe(header);
    expect(shown).toContain('FAILED');
    expect(screen).not.toContain('Timing');
    // The colours reached the terminal: red above blue.
    const styled = term!.captureStyled();
    expect(styled).toContain('38;2;255;0;0');
    expect(styled).toContain('48;2;0;0;255');

    term!.sendKeys('o');
    const saved = await term!.waitFor(/screenshot saved to (\S+)/);
    const path = /screenshot saved to (\S+)/.exec(saved)![1]!;
    expect(path).toMatch(new RegExp(`^${dir}/checkwall-c2-[0-9a-f]{8}\\.png$`));
    expect(readFileSync(path).equals(png)).toBe(true);

    term!.sendKeys('i');
    await term!.waitFor('Timing');
    expect(pictureRows(term!.capture())).toEqual([]);
  }, 90_000);

  it('uses the 256-colour palette without truecolor, and offers only the save under NO_COLOR', async () => {
    await open({});
    await term!.waitFor('screenshot: i shows it');
    term!.sendKeys('i');
    await expect.poll(() => pictureRows(term!.capture()).length).toBeGreaterThan(10);
    expect(term!.captureStyled()).toMatch(/38;5;196/);
    term!.kill();

    await open({ NO_COLOR: '1' });
    await term!.waitFor('screenshot: o saves it as a PNG file (pictures need colour)');
    term!.sendKeys('i');
    term!.sendKeys('o');
    await term!.waitFor('screenshot saved to');
    expect(pictureRows(term!.capture())).toEqual([]);
  }, 90_000);
});
