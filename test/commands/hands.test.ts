import { describe, expect, it } from 'vitest';
import { browserCommand } from '../../src/commands/hands.js';

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
