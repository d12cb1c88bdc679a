// The status cache keeps the object it holds when a status is derived again with the
// same figures (status/cache.ts sameStatus): every field counts, the quick ones first.
import { describe, expect, it } from 'vitest';
import type { CheckStatus } from '../../../src/api/schemas/index.js';
import { sameStatus } from '../../../src/server/status/cache.js';
import { sampleStatus } from '../../helpers/samples.js';

const base = sampleStatus('c1');
const last = base.lastExecution!;

describe('sameStatus', () => {
  it.each<[string, CheckStatus, boolean]>([
    ['a copy', structuredClone(base), true],
    ['another status', { ...base, status: 'failing' }, false],
    [
      'a newer last execution',
      { ...base, lastExecution: { ...last, timestamp: '2026-11-22T10:01:00.000Z' } },
      false,
    ],
    ['another availability', { ...base, availability: { ...base.availability, percentage: 99 } }, false],
    ['another average', { ...base, performance: { ...base.performance, averageResponseTime: 121 } }, false],
    // The quick fields agree; only the walk over the whole tells these apart.
    ['another p95', { ...base, performance: { ...base.performance, p95ResponseTime: 241 } }, false],
    [
      'a location turned failing',
      { ...base, locations: [{ ...base.locations[0]!, status: 'failing' }] },
      false,
    ],
    ['an alert more', { ...base, alerts: { ...base.alerts, active: 1 } }, false],
  ])('%s', (_name, other, same) => {
    expect(sameStatus(base, other)).toBe(same);
  });
});
