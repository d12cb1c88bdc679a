// A poll that brings only what changed (the poll worker's), applied to the store:
// the same board as a poll of the whole list, with unchanged checks untouched.
import { describe, expect, it } from 'vitest';
import { createConsoleStore } from '../../src/store/create-store.js';
import { patchedList } from '../../src/store/records.js';
import { selectBoardOrder } from '../../src/store/selectors.js';
import { sampleStatus, sampleSummary } from '../helpers/samples.js';

const plan = { tiered: true, sweepEvery: 10, minGap: 3 };
const first = () => [sampleStatus('a'), sampleStatus('b'), sampleStatus('c', { status: 'degraded' })];

function loaded() {
  const store = createConsoleStore();
  store.getState().applyStatusChanges({ changed: first(), removed: [], summary: sampleSummary() }, 1);
  return store;
}

describe('applyStatusChanges', () => {
  it('loads every check from the first poll', () => {
    const store = loaded();
    expect(Object.keys(store.getState().checks).sort()).toEqual(['a', 'b', 'c']);
    expect(store.getState().statusesAt).toBe(1);
    expect(store.getState().statusTiers).toBeNull();
  });

  it('replaces the changed checks, adds new ones, drops removed ones and keeps the rest as they were', () => {
    const store = loaded();
    const before = store.getState().checks;
    store.getState().applyStatusChanges(
      {
        changed: [sampleStatus('b', { status: 'failing' }), sampleStatus('d')],
        removed: ['c'],
        summary: sampleSummary({ failing: 1 }),
      },
      2,
    );
    const s = store.getState();
    expect(Object.keys(s.checks).sort()).toEqual(['a', 'b', 'd']);
    expect(s.checks['a']).toBe(before['a']);
    expect(s.checks['b']!.status).toBe('failing');
    expect(s.newlyFailing).toEqual(['b']);
    expect(s.turnedFailingAt['b']).toBe(2);
    expect(s.summary?.failing).toBe(1);
    expect(selectBoardOrder(s)[0]).toBe('b');
  });

  it('keeps the very same record when nothing changed, and still stamps the poll', () => {
    const store = loaded();
    const before = store.getState().checks;
    store.getState().applyStatusChanges({ changed: [], removed: [], summary: sampleSummary() }, 5);
    expect(store.getState().checks).toBe(before);
    expect(store.getState().statusesAt).toBe(5);
  });

  it('keeps the tiering only while it applies', () => {
    const store = loaded();
    const none = { changed: [], removed: [], summary: null };
    store.getState().applyStatusChanges({ ...none, tiers: { plan, refreshMs: 5_000 } }, 2);
    expect(store.getState().statusTiers).toEqual({ plan, refreshMs: 5_000 });
    const kept = store.getState().statusTiers;
    store.getState().applyStatusChanges({ ...none, tiers: { plan: { ...plan }, refreshMs: 5_000 } }, 3);
    expect(store.getState().statusTiers).toBe(kept);
    const whole = { tiered: false, sweepEvery: 1, minGap: 1 };
    store.getState().applyStatusChanges({ ...none, tiers: { plan: whole, refreshMs: 5_000 } }, 4);
    expect(store.getState().statusTiers).toBeNull();
  });
});

describe('patchedList', () => {
  it('keeps the order of the record, the changed in place and the new at the end', () => {
    const [a, b, c] = first();
    const list = patchedList({ a: a!, b: b!, c: c! }, [sampleStatus('e'), sampleStatus('b')], ['a']);
    expect(list.map((x) => x.checkId)).toEqual(['b', 'c', 'e']);
    expect(list[1]).toBe(c);
  });
});
