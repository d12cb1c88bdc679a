import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { browserCommand, createHands } from '../../src/commands/hands.js';

describe('browserCommand', () => {
  it.each([
    ['no display over SSH', {}, 'linux', null],
    ['X11', { DISPLAY: ':0' }, 'linux', 'xdg-open'],
    ['Wayland', { WAYLAND_DISPLAY: 'wayland-0' }, 'linux', 'xdg-open'],
    ['$BROWSER where there is a display', { DISPLAY: ':0', BROWSER: 'firefox' }, 'linux', 'firefox'],
    ['$BROWSER alone is not a display', { BROWSER: 'w3m' }, 'linux', null],
    ['macOS', {}, 'darwin', 'open'],
  ] as const)('%s', (_, env, platform, want) => {
    expect(browserCommand(env, platform)).toBe(want);
  });
});

describe('open', () => {
  const dirs: string[] = [];
  const tempDir = () => (dirs.push(mkdtempSync(join(tmpdir(), 'checkwall-path-'))), dirs.at(-1)!);
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
  const hands = (env: NodeJS.ProcessEnv) =>
    createHands({
      stdout: {} as never,
      stdin: {} as never,
      screen: {} as never,
      terminal: {} as never,
      env,
      platform: 'linux',
    });

  it('says it cannot open where the display has no xdg-open (ssh -X to a server), so b copies instead', () => {
    const empty = tempDir();
    expect(hands({ DISPLAY: 'localhost:10.0', PATH: empty }).open('https://e.com/')).toBe(false);
    expect(hands({ DISPLAY: ':0', BROWSER: join(empty, 'gone'), PATH: empty }).open('https://e.com/')).toBe(
      false,
    );
  });

  it('opens with the xdg-open it finds on PATH, the URL its one argument', async () => {
    const dir = tempDir();
    const said = join(dir, 'said');
    writeFileSync(join(dir, 'xdg-open'), `#!/bin/sh\nprintf '%s|%s' "$#" "$1" > '${said}'\n`);
    chmodSync(join(dir, 'xdg-open'), 0o755);
    expect(hands({ DISPLAY: ':0', PATH: dir }).open('https://e.com/a b')).toBe(true);
    await expect
      .poll(() => readFileSync(said, 'utf8').toString(), { timeout: 2_000 })
      .toBe('1|https://e.com/a b');
  });
});

describe('runInTerminal', () => {
  it('says a command that cannot start so (an empty program: {target} before a first run), and the screen is given back a key later', () => {
    const calls: string[] = [];
    const out: string[] = [];
    const hands = createHands({
      stdout: { write: (text: string) => out.push(text) } as never,
      stdin: { isTTY: false } as never,
      screen: { suspend: () => calls.push('suspend'), resume: () => calls.push('resume') } as never,
      terminal: { leave: () => calls.push('leave'), enter: () => calls.push('enter') } as never,
      env: {},
      platform: 'linux',
    });
    const how = hands.runInTerminal(['', 'x'], {}, 'empty');
    expect(how).toMatch(/^could not start: /);
    expect(out.join('')).toContain('[checkwall: empty could not start: ');
    hands.resumeScreen();
    expect(calls).toEqual(['suspend', 'leave', 'enter', 'resume']);
  });
});
