// The UI thread's one copy of each repeated string of the statuses: interning
// changes no status (every field as it came, no field added), whatever it holds.
import { describe, expect, it } from 'vitest';
import type { CheckStatus } from '../../src/api/schemas/index.js';
import { createInterner } from '../../src/store/poll-worker/intern.js';
import { sampleStatus } from '../helpers/samples.js';

const copy = (c: CheckStatus) => structuredClone(c);

describe('createInterner', () => {
  it('leaves a full status equal to what came, field for field', () => {
    const full: CheckStatus = {
      ...sampleStatus('c1', { status: 'failing' }),
      statusReason: 'failing at 2 of 3 locations',
      tags: ['prod', 'api', 'prod'],
      group: { id: 'core', name: 'Core' },
    };
    full.lastExecution = { ...full.lastExecution!, error: 'connection refused' };
    const intern = createInterner();
    const out = intern.status(copy(full));
    expect(out).toStrictEqual(full);
  });

  it('adds no field a status did not have (no statusReason, no error, no group, never run)', () => {
    const bare: CheckStatus = {
      ...sampleStatus('c2', { status: 'unknown' }),
      lastExecution: null,
      group: null,
    };
    delete bare.statusReason;
    const out = createInterner().status(copy(bare));
    expect(out).toStrictEqual(bare);
    expect('statusReason' in out).toBe(false);
  });

  it('keeps every value when it has seen more distinct values than it holds', () => {
    const intern = createInterner();
    const statuses = Array.from({ length: 6_000 }, (_, i) => ({
      ...sampleStatus(`c${i}`),
      statusReason: `reason ${i}`,
    }));
    const out = statuses.map((c) => intern.status(copy(c)));
    expect(out).toStrictEqual(statuses);
  });
});
