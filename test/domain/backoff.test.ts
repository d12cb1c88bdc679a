// The one backoff of the client's retries and the poller's waits.
import { describe, expect, it } from 'vitest';
import { backoffDelay } from '../../src/domain/backoff.js';

describe('backoffDelay', () => {
  it.each<[number, number, number]>([
    // attempt, random, expected (base 250 ms, at most 4 s)
    [0, 0, 125], // half the step is fixed
    [0, 1, 250], // the other half is random
    [1, 0.5, 375],
    [3, 1, 2000],
    [4, 1, 4000], // capped
    [10, 0, 2000], // still capped, never zero
  ])('attempt %i with random %f waits %i ms', (attempt, random, expected) => {
    expect(backoffDelay(attempt, 250, 4_000, () => random)).toBe(expected);
  });
});
