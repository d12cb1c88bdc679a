import { describe, expect, it } from 'vitest';
import { CLIPBOARD_CAP, clipText, copiedMessage, osc52 } from '../../src/domain/clipboard.js';

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
});
