// The console's hands in a real terminal (issue 46): tmux runs the demo with the
// config file's own command, `set-clipboard on` and the pane's raw output piped
// to a file. y sends the check id as an OSC 52 that tmux keeps as its buffer; the
// user's command runs on the main screen and a key brings the board back; with
// FORCE_HYPERLINK=1 the result's URL and the header's status page go out as OSC 8
// links that are closed.
import { mkdtempSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hasTmux, startTerminal, type Terminal } from '../helpers/tmux.js';

let term: Terminal | undefined;
afterEach(() => term?.kill());

// eslint-disable-next-line no-control-regex -- the sequences are what is looked for
const OSC52 = /\u001b\]52;c;([A-Za-z0-9+/=]+)\u0007/;
// eslint-disable-next-line no-control-regex -- as above
const OSC8 = /\u001b\]8;;(https?:\/\/[^\u0007]+)\u0007[^\u0007]+\u001b\]8;;\u0007/;

const STATUS_PAGE_LINK =
  // eslint-disable-next-line no-control-regex -- as above
  /\u001b\]8;;http:\/\/127\.0\.0\.1:\d+\/status\/status\u0007\/status\/status\u001b\]8;;\u0007/;

describe.skipIf(!hasTmux)('hands in tmux', () => {
  it('copies through OSC 52, runs an own command and restores the screen, and writes closed OSC 8 links', async () => {
    const home = mkdtempSync(join(tmpdir(), 'checkwall-hands-'));
    mkdirSync(join(home, 'checkwall'));
    writeFileSync(
      join(home, 'checkwall', 'config.json'),
      JSON.stringify({
        commands: [{ key: 'V', name: 'marker', scope: 'board', run: ['printf', 'RAN[%s]\\n', '{check.id}'] }],
      }),
    );
    const raw = join(home, 'raw.out');
    term = startTerminal(`${process.execPath} bin/checkwall.js demo --refresh 2`, {
      cols: 200,
      rows: 55,
      env: { XDG_CONFIG_HOME: home, FORCE_HYPERLINK: '1' },
    });
    term.tmux('set-option', '-g', 'set-clipboard', 'on');
    term.tmux('pipe-pane', '-o', '-t', 'main', `cat >> '${raw}'`);
    await term.waitFor(/✖ [1-9]\d* failing/, 30_000);
    expect(term.capture()).toContain('V marker');
    // The demo's header names its status page: the path is a link to the page.
    await expect
      .poll(() => STATUS_PAGE_LINK.test(readFileSync(raw, 'latin1')), { timeout: 10_000 })
      .toBe(true);

    // Moved once, the selection stays on its check across re-sorts (docs/console.md).
    term.sendKeys('j');
    await new Promise((resolve) => setTimeout(resolve, 300));
    term.sendKeys('y');
    await term.waitFor('if nothing pastes');
    const sent = OSC52.exec(readFileSync(raw, 'latin1'));
    expect(sent).not.toBeNull();
    const id = Buffer.from(sent![1]!, 'base64').toString('utf8');
    expect(id).toMatch(/^[\w-]+$/);
    // tmux took it (set-clipboard on): its newest paste buffer is the check id.
    await expect.poll(() => term!.tmux('show-buffer'), { timeout: 5_000 }).toBe(id);

    term.sendKeys('V');
    await term.waitFor(`RAN[${id}]`);
    await term.waitFor('press a key to return');
    term.sendKeys('x');
    await expect.poll(() => term!.capture(), { timeout: 10_000 }).not.toContain('RAN[');
    await term.waitFor(/✖ [1-9]\d* failing/);
    expect(
      term
        .capture()
        .split('\n')
        .filter((l) => l.startsWith('Checkwall')).length,
    ).toBe(1);

    // An HTTP check's run: its request's URL is a link.
    term.sendKeys('/');
    term.type('type:api');
    term.sendKeys('Enter');
    await term.waitFor('/type:api');
    term.sendKeys('Enter');
    await term.waitFor(/› \d\d:\d\d:\d\d/, 15_000);
    term.sendKeys('Enter');
    await term.waitFor('Request', 15_000);
    await expect.poll(() => OSC8.test(readFileSync(raw, 'latin1')), { timeout: 10_000 }).toBe(true);
  }, 60_000);
});
