import { describe, expect, it } from 'vitest';
import { CLIPBOARD_CAP, clipText, copiedMessage, osc52, pasteSafe } from '../../src/domain/clipboard.js';

describe('clipboard', () => {
  it('sends the text base64 in one OSC 52 ended by BEL', () => {
    expect(osc52('héllo')).toBe(`\u001b]52;c;${Buffer.from('héllo').toString('base64')}\u0007`);
  });

  it('keeps text up to the cap whole and counts its bytes', () => {
    const clip = clipText('é'.repeat(10));
    expect(clip).toEqual({ sent: 'é'.repeat(10), bytes: 20, cut: false });
    expect(copiedMessage(clip)).toBe(
      'copied 20 bytes; if nothing pastes, your terminal or tmux blocks it (tmux: set -g set-clipboard on)',
    );
  });

  it('cuts past the cap at a character start, and says so', () => {
    const text = `a${'€'.repeat(CLIPBOARD_CAP)}`; // 3 bytes each: the cap falls inside one
    const clip = clipText(text);
    expect(clip.cut).toBe(true);
    expect(clip.bytes).toBeLessThanOrEqual(CLIPBOARD_CAP);
    expect(clip.bytes).toBeGreaterThan(CLIPBOARD_CAP - 3);
    expect(Buffer.byteLength(clip.sent)).toBe(clip.bytes);
    expect(text.startsWith(clip.sent)).toBe(true);
    expect(copiedMessage(clip)).toContain('cut at 64 KiB');
  });

  it.each<[string, string, boolean, string]>([
    ["an ESC that would end a shell's bracketed paste", 'a\u001b[201~b', false, 'a[201~b'],
    ['CR LF and a lone CR as newlines; tabs kept', 'a\r\nb\rc\td', false, 'a\nb\nc\td'],
    ['C1, DEL and bidi controls', 'a\u009b\u007f\u202e\u2066b', false, 'ab'],
    ['one line: newlines and tabs as spaces', 'a\nb\tc', true, 'a b c'],
    // One character at a time: a quote after an ESC stays, so a shell word keeps its quoting.
    ["a single-quoted word's quotes", "'a\u001b['\\''b'", false, "'a['\\''b'"],
  ])('pasteSafe: %s', (_, text, oneLine, want) => {
    expect(pasteSafe(text, oneLine)).toBe(want);
  });
});
