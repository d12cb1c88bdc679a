// The whole program in a real terminal: tmux runs `bin/checkwall.js demo`.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hasTmux, startTerminal, type Terminal } from '../helpers/tmux.js';

let term: Terminal | undefined;
afterEach(() => term?.kill());

const DEMO = `${process.execPath} bin/checkwall.js demo --refresh 2`;

describe.skipIf(!hasTmux)('console in tmux', () => {
  it('shows the demo board at 120x40, answers ?, /, f, s and a resize, and q restores the terminal', async () => {
    term = startTerminal(`sh -c 'echo BEFORE-CHECKWALL; ${DEMO}; echo AFTER-CHECKWALL; sleep 30'`, {
      cols: 120,
      rows: 40,
    });
    await term.waitFor(/✖ [1-9]\d* failing/, 30_000);
    let screen = await term.waitFor('Orders queue');
    expect(screen).toContain('FAILING');
    expect(screen).toContain('passing');
    // The demo's cron jobs say when their next ping is due; the group has room at 120.
    expect(screen).toMatch(/NEXT PING +GROUP/);

    term.sendKeys('?');
    await term.waitFor('jump to the next failing check');
    term.sendKeys('Escape');
    await term.waitFor('Orders queue');

    term.sendKeys('/');
    term.type('type:tcp');
    screen = await term.waitFor('/type:tcp');
    await expect.poll(() => term!.capture()).not.toContain('Orders queue');
    expect(term.capture()).toContain('Cache port (echo)');
    term.sendKeys('Escape');
    await term.waitFor('Orders queue');

    term.sendKeys('f');
    await expect.poll(() => selectedLine(term!.capture())).toContain('FAILING');
    term.sendKeys('s');
    await expect.poll(() => term!.capture()).toContain('CHECK↑');
    term.sendKeys('S');
    await expect.poll(() => term!.capture()).toContain('CHECK↓');

    term.resize(80, 24);
    await expect.poll(() => term!.capture()).not.toContain('GROUP');
    // Redrawn once, not stacked on the old frame.
    await expect
      .poll(
        () =>
          term!
            .capture()
            .split('\n')
            .filter((l) => l.includes('Checkwall')).length,
      )
      .toBe(1);
    // The rows are the new layout's, top to bottom: no line of the old frame survives or scrolls in.
    await expect
      .poll(() => term!.capture().split('\n').slice(0, 3).join('\n'))
      .toMatch(/^Checkwall.*\n✖ \d+ .*\n\s+STATUS/);
    // Polled like the rest: a capture can land between two writes of one frame.
    await expect
      .poll(
        () =>
          term!
            .capture()
            .split('\n')
            .filter((l) => l.includes('STATUS')).length,
      )
      .toBe(1);

    term.sendKeys('q');
    screen = await term.waitFor('AFTER-CHECKWALL');
    // The alternate screen is gone: what was printed before the console is back.
    expect(screen).toContain('BEFORE-CHECKWALL');
    expect(screen).not.toContain('Orders queue');
  }, 90_000);

  it('fits 80x24 from the start', async () => {
    term = startTerminal(DEMO, { cols: 80, rows: 24 });
    const screen = await term.waitFor('AVAIL', 30_000);
    expect(screen).not.toContain('TAGS');
    expect(screen.trimEnd().split('\n').length).toBeLessThanOrEqual(24);
    term.sendKeys('q');
    await expect.poll(() => term!.exited(), { timeout: 10_000 }).toBe(true);
  });
});

describe.skipIf(!hasTmux)('a terminal that hangs up', () => {
  // An SSH session dropped: the pty's end closes and the console hears SIGHUP with no terminal
  // left, or first meets it writing a frame (EIO). Node 20 aborted on its way out (its reset of
  // a terminal that is gone), writing a native stack trace to stderr; the console now dies of the
  // hang-up, quietly.
  const hangUp = async (wrap: (demo: string) => string) => {
    const dir = mkdtempSync(join(tmpdir(), 'checkwall-hangup-'));
    const [pidFile, errFile] = [join(dir, 'pid'), join(dir, 'stderr')];
    term = startTerminal(wrap(`echo \\$\\$ > ${pidFile}; exec ${DEMO} 2>${errFile}`), { cols: 80, rows: 24 });
    await term.waitFor('AVAIL', 30_000);
    const pid = Number(readFileSync(pidFile, 'utf8'));
    term.kill();
    const alive = () => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    await expect.poll(alive, { timeout: 10_000 }).toBe(false);
    return readFileSync(errFile, 'utf8');
  };

  it('ends the console without an abort when SIGHUP comes', async () => {
    expect(await hangUp((line) => `sh -c "${line}"`)).toBe('');
  }, 60_000);

  it('ends the console without an abort when a frame meets the lost terminal first', async () => {
    // In a session of its own the console hears no SIGHUP: its next frame's write fails.
    expect(await hangUp((line) => `setsid -w sh -c "${line}"`)).toBe('');
  }, 60_000);
});

function selectedLine(screen: string): string {
  return screen.split('\n').find((l) => l.startsWith('›')) ?? '';
}
