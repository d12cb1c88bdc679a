import { describe, expect, it } from 'vitest';
import { displayWidth, fit, sanitize, sanitizeMultiline, truncate } from '../../src/domain/sanitize.js';

describe('sanitize', () => {
  it.each([
    ['\u001b[2J\u001b[Hwiped', 'wiped'],
    ['\u001b]0;pwned title\u0007name', 'name'],
    ['\u001b]8;;http://evil\u001b\\link\u001b]8;;\u001b\\', 'link'],
    ['red \u001b[31mtext\u001b[0m', 'red text'],
    ['bell\u0007 and nul\u0000', 'bell and nul'],
    ['c1 \u009b31m csi', 'c1  csi'],
    ['bidi \u202eevil', 'bidi evil'],
    // Invisible characters that make one name look like another.
    ['zero\u200bwidth\u200c non\u200djoiner', 'zerowidth nonjoiner'],
    ['marks \u200eltr \u200frtl \u061calm', 'marks ltr rtl alm'],
    ['embed \u202aa\u202bb\u202cc\u202dd', 'embed abcd'],
    ['isolates \u2066a\u2067b\u2068c\u2069', 'isolates abc'],
    ['tab\there\nnewline', 'tab here newline'],
  ])('%j becomes %j', (input, expected) => {
    expect(sanitize(input)).toBe(expected);
  });

  it('keeps lines in multiline text', () => {
    expect(sanitizeMultiline('a\r\nb\t\u001b[1mc')).toBe('a\nb  c');
  });

  it('measures wide characters and emoji as two columns', () => {
    expect(displayWidth('abc')).toBe(3);
    expect(displayWidth('日本')).toBe(4);
    expect(displayWidth('🔥ok')).toBe(4);
    expect(displayWidth('e\u0301')).toBe(1);
    expect(truncate('日本語テキスト', 7)).toBe('日本語…');
    expect(displayWidth(fit('日本語テキスト', 8))).toBe(8);
    expect(fit('ab', 4, '…', 'right')).toBe('  ab');
  });
});
