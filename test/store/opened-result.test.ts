// The result a result view opened stays on screen while newer runs push it off the
// page and out of the window the console polls: a finished run does not change.
import { describe, expect, it } from 'vitest';
import { createConsoleStore } from '../../src/store/create-store.js';
import { findResult } from '../../src/store/detail-slice.js';
import { resultList, sampleResult, sampleStatus, sampleSummary } from '../helpers/samples.js';

const runs = (from: number, n: number) =>
  Array.from({ length: n }, (_, i) =>
    sampleResult(`r${from + i}`, {
      checkId: 'c1',
      startedAt: new Date(Date.parse('2026-11-22T09:00:00Z') - (from + i) * 10_000).toISOString(),
    }),
  );

function opened(open: (s: ReturnType<ReturnType<typeof createConsoleStore>['getState']>) => void) {
  const store = createConsoleStore();
  const s = () => store.getState();
  s().applyStatuses([sampleStatus('c1', { status: 'passing' })], sampleSummary(), 1);
  s().openCheck('c1', false);
  s().applyResults('c1', resultList(runs(0, 3)), resultList(runs(0, 3)), null, 1);
  open(s());
  expect(s().stack.at(-1)).toMatchObject({ name: 'result' });
  // Ten newer runs later: the opened run is neither on the page nor in the window.
  s().applyResults('c1', resultList(runs(-10, 3)), resultList(runs(-10, 3)), null, 2);
  const view = s().stack.at(-1)!;
  return view.name === 'result' ? findResult(s().detail, view.resultId) : undefined;
}

describe('a result opened', () => {
  it('from the check view stays found when newer runs push it out of the lists', () => {
    const shown = opened((s) => {
      s.moveResult(2);
      s.openResult();
    });
    expect(shown?.id).toBe('r2');
  });

  it('by n stays found too', () => {
    const shown = opened((s) => {
      s.openResult();
      s.stepResult(1);
    });
    expect(shown?.id).toBe('r1');
  });
});
