// The one way every list of the console moves its selection.
import { describe, expect, it } from 'vitest';
import { stepTo, type Step } from '../../src/domain/step.js';

const ids = ['a', 'b', 'c', 'd'];

describe('stepTo', () => {
  it.each<[string | null, Step, string]>([
    ['b', 1, 'c'],
    ['b', -1, 'a'],
    ['a', -1, 'a'], // clamped at the top
    ['d', 1, 'd'], // and at the bottom
    ['b', 10, 'd'], // a page past the end
    ['c', -10, 'a'],
    ['c', 'first', 'a'],
    ['a', 'last', 'd'],
    [null, 1, 'b'], // nothing selected: counted from the first row
    ['gone', 2, 'c'], // a selection no longer listed: likewise
  ])('from %s by %s is %s', (from, step, expected) => {
    expect(stepTo(ids, from, step)).toBe(expected);
  });

  it('is undefined only for an empty list', () => {
    expect(stepTo([], 'a', 1)).toBeUndefined();
    expect(stepTo([7], 7, 'last')).toBe(7);
  });
});
