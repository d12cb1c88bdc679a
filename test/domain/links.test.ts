import { describe, expect, it } from 'vitest';
import { hyperlink, hyperlinksWanted, safeLinkUrl, statusPageUrl } from '../../src/domain/links.js';

describe('safeLinkUrl', () => {
  it.each([
    ['https://runbooks.example.com/api', true],
    ['http://127.0.0.1:8787/x', true],
    ['javascript:alert(1)', false],
    ['file:///etc/passwd', false],
    ['ssh://host', false],
    ['not a url', false],
    ['https://e.com/\u001b]8;;https://evil\u001b\\', false],
    ['https://e.com/\u0007', false],
    ['https://e.com/\u009d', false],
    ['https://e.com/\u009b31m', false],
    ['', false],
  ])('%j allowed: %s', (url, ok) => {
    expect(safeLinkUrl(url)).toBe(ok ? url : null);
  });

  it('links a safe URL and closes the link after its text; a refused one is text alone', () => {
    expect(hyperlink('https://e.com/a', 'docs')).toBe('\u001b]8;;https://e.com/a\u0007docs\u001b]8;;\u0007');
    expect(hyperlink('javascript:x', 'docs')).toBe('docs');
  });
});

describe('statusPageUrl', () => {
  it("is the service's /status/{customUrl}, the slug encoded; refused when the base is not clean http(s)", () => {
    expect(statusPageUrl('http://127.0.0.1:8787/', 'ops board')).toBe(
      'http://127.0.0.1:8787/status/ops%20board',
    );
    expect(statusPageUrl('https://mon.example.com/api', 'a/b\u001b')).toBe(
      'https://mon.example.com/api/status/a%2Fb%1B',
    );
    expect(statusPageUrl('ftp://e.com', 'x')).toBeNull();
    expect(statusPageUrl('http://e.com/\u0007', 'x')).toBeNull();
  });
});

describe('hyperlinksWanted', () => {
  it.each([
    ['--no-links wins over FORCE_HYPERLINK', true, { FORCE_HYPERLINK: '1' }, true, false],
    ['FORCE_HYPERLINK=1 without a terminal', false, { FORCE_HYPERLINK: '1' }, false, true],
    ['FORCE_HYPERLINK empty forces', false, { FORCE_HYPERLINK: '' }, false, true],
    ['FORCE_HYPERLINK=0 turns off', false, { FORCE_HYPERLINK: '0', TERM: 'xterm-kitty' }, true, false],
    ['not a terminal', false, { TERM: 'xterm-kitty' }, false, false],
    ['kitty', false, { TERM: 'xterm-kitty' }, true, true],
    ['VTE 0.50', false, { VTE_VERSION: '5002' }, true, true],
    ['iTerm 3.1', false, { TERM_PROGRAM: 'iTerm.app', TERM_PROGRAM_VERSION: '3.1.0' }, true, true],
    ['iTerm 3.0', false, { TERM_PROGRAM: 'iTerm.app', TERM_PROGRAM_VERSION: '3.0.9' }, true, false],
    ['vscode 1.72', false, { TERM_PROGRAM: 'vscode', TERM_PROGRAM_VERSION: '1.72.0' }, true, true],
    ['inside tmux', false, { TMUX: '/tmp/tmux', TERM: 'xterm-kitty' }, true, false],
    ['in CI', false, { CI: 'true', TERM: 'xterm-kitty' }, true, false],
    ['plain xterm', false, { TERM: 'xterm-256color' }, true, false],
  ])('%s', (_, flagOff, env, tty, want) => {
    expect(hyperlinksWanted(flagOff, env, tty)).toBe(want);
  });
});
