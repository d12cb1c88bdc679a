// The service's composite keys: one per pair (or triple) of ids, never shared by two.
import { describe, expect, it } from 'vitest';
import { checkKey, locationKey, runnerKey, slotKey } from '../../src/domain/keys.js';

describe('composite keys', () => {
  it('keep pairs apart that plain joining would merge', () => {
    expect(checkKey('a-b', 'c')).not.toBe(checkKey('a', 'b-c'));
    expect(checkKey('ab', 'c')).not.toBe(checkKey('a', 'bc'));
  });

  it('extend the pair by its third id', () => {
    expect(slotKey('a', 'c1', 'far')).toBe(`${checkKey('a', 'c1')}\u0000far`);
    expect(runnerKey('a', 'far', 'r1')).toBe(`${locationKey('a', 'far')}\u0000r1`);
    expect(slotKey('a', 'c1', 'far')).not.toBe(slotKey('a', 'c1f', 'ar'));
  });
});
