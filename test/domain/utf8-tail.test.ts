import { describe, expect, it } from 'vitest';
import { utf8Tail } from '../../src/domain/utf8-tail.js';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('the end of a job’s output', () => {
  it('is cut on a character’s boundary: a 2-, 3- or 4-byte character cut is dropped whole', () => {
    // 14 bytes kept of each: the cut falls one byte into the character before them.
    expect(utf8Tail(bytes(`xé${'y'.repeat(13)}`), 14)).toBe('y'.repeat(13));
    expect(utf8Tail(bytes(`x€${'y'.repeat(12)}`), 14)).toBe('y'.repeat(12));
    expect(utf8Tail(bytes(`x😀${'y'.repeat(11)}`), 14)).toBe('y'.repeat(11));
  });

  it('keeps a character that ends where the cut begins, and a body that fits as it came', () => {
    expect(utf8Tail(bytes('x€yz'), 5)).toBe('€yz');
    expect(utf8Tail(bytes('€uro'), 64)).toBe('€uro');
    expect(utf8Tail(new Uint8Array([0x82, 0x41]), 64)).toBe('\uFFFDA');
  });
});
