import { describe, expect, it } from 'vitest';
import { sameJson } from '../../src/domain/equal.js';
import { sampleStatus } from '../helpers/samples.js';

describe('sameJson', () => {
  it.each<[string, unknown, unknown, boolean]>([
    ['equal primitives', 'a', 'a', true],
    ['different strings', 'a', 'b', false],
    ['null and null', null, null, true],
    ['null and an object', null, {}, false],
    ['0 and null', 0, null, false],
    ['NaN and NaN', Number.NaN, Number.NaN, true],
    ['equal objects, keys in another order', { a: 1, b: [1, 2] }, { b: [1, 2], a: 1 }, true],
    ['a key more', { a: 1 }, { a: 1, b: 2 }, false],
    ['a key fewer', { a: 1, b: 2 }, { a: 1 }, false],
    ['a different nested value', { a: { b: [1, { c: 2 }] } }, { a: { b: [1, { c: 3 }] } }, false],
    ['an undefined value and an absent key', { a: 1, b: undefined }, { a: 1 }, true],
    ['arrays of other lengths', [1, 2], [1, 2, 3], false],
    ['the same elements in another order', [1, 2], [2, 1], false],
    ['an array and an object with its indices', [1], { 0: 1 }, false],
    ['an object and an array', {}, [], false],
  ])('%s', (_name, a, b, expected) => {
    expect(sameJson(a, b)).toBe(expected);
    expect(sameJson(b, a)).toBe(expected);
  });

  it('agrees with JSON.stringify on check statuses', () => {
    const a = sampleStatus('x');
    const b = structuredClone(a);
    expect(sameJson(a, b)).toBe(true);
    b.locations[0]!.status = 'failing';
    expect(sameJson(a, b)).toBe(false);
    expect(sameJson(a, { ...a, statusReason: 'new' })).toBe(false);
  });
});
