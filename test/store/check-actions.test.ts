// The actions on a check as store state, without React or a service: the
// question, the answer, the runs followed until all are in, the newest result
// picked for the check view. A key whose role cannot act is refused before it
// asks: test/ui/disabled.test.ts.
import { describe, expect, it } from 'vitest';
import type { CheckRun } from '../../src/api/schemas/actions.js';
import { createConsoleStore } from '../../src/store/create-store.js';
import { sampleStatus, sampleSummary } from '../helpers/samples.js';

const run = (runId: string, location: string, over: Partial<CheckRun> = {}): CheckRun => ({
  runId,
  checkId: 'c1',
  location,
  state: 'queued',
  triggeredBy: 'manual',
  queuedAt: '2026-11-27T10:00:00.000Z',
  ...over,
});

function storeWithCheck() {
  const store = createConsoleStore();
  const check = sampleStatus('c1', {
    checkName: 'Payments',
    locations: [
      { id: 'eu-west', name: 'Frankfurt', status: 'passing', lastSuccess: null },
      { id: 'us-east', name: 'Virginia', status: 'passing', lastSuccess: null },
    ],
  });
  store.getState().applyStatuses([check], sampleSummary(), Date.now());
  return store;
}

describe('acting on a check', () => {
  it('asks, sends, follows the runs and picks the newest result once all are in', () => {
    const store = storeWithCheck();
    store.getState().openCheck('c1', false);
    store.getState().askRunNow('c1');
    expect(store.getState().checkAction).toMatchObject({ state: 'confirm', kind: 'run', locations: 2 });
    store.getState().answerCheckAction(true);
    expect(store.getState().checkAction.state).toBe('sending');
    const before = store.getState().actionsVersion;
    store.getState().checkActionDone({
      ok: true,
      value: { kind: 'run', runs: [run('r1', 'eu-west'), run('r2', 'us-east')] },
    });
    expect(store.getState().runWatch).toMatchObject({ finished: false, landed: [] });
    store.getState().applyRuns([run('r2', 'us-east', { state: 'done', status: 'success', resultId: 'r2' })]);
    expect(store.getState().runWatch).toMatchObject({ finished: false, landed: ['r2'] });
    expect(store.getState().actionsVersion).toBeGreaterThan(before + 1);
    store.getState().applyRuns([run('r1', 'eu-west', { state: 'done', status: 'failed', resultId: 'r1' })]);
    expect(store.getState().runWatch).toMatchObject({ finished: true, landed: ['r2', 'r1'] });
    expect(store.getState().stack.at(-1)).toMatchObject({ name: 'check', pickResultId: 'r1' });
  });

  it('says the service’s refusal, and leaves nothing to follow', () => {
    const store = storeWithCheck();
    store.getState().askRunNow('c1');
    store.getState().answerCheckAction(true);
    store.getState().checkActionDone({
      ok: false,
      error: { kind: 'http', status: 429, message: 'check "c1" was asked to run 10 times this minute' },
    });
    expect(store.getState().checkAction).toEqual({
      state: 'error',
      kind: 'run',
      checkId: 'c1',
      message: 'could not run Payments now: check "c1" was asked to run 10 times this minute',
      at: store.getState().now,
    });
    expect(store.getState().runWatch).toBeNull();
  });

  it('asks to resume a check a person paused, and n leaves it', () => {
    const store = storeWithCheck();
    const c1 = store.getState().checks['c1']!;
    store
      .getState()
      .applyStatuses(
        [{ ...c1, paused: { by: 'ops', since: c1.lastExecution!.timestamp } }],
        sampleSummary(),
        Date.now(),
      );
    store.getState().askPauseResume('c1');
    expect(store.getState().checkAction).toMatchObject({ state: 'confirm', kind: 'resume' });
    store.getState().answerCheckAction(false);
    expect(store.getState().checkAction).toEqual({ state: 'idle' });
  });
});

describe('how long an action message stays (the store clock, no sleeps)', () => {
  const T0 = Date.parse('2026-11-27T10:00:00.000Z');
  const paused = (store: ReturnType<typeof storeWithCheck>) => {
    const c1 = store.getState().checks['c1']!;
    return { ...c1, paused: { by: 'ops', since: '2026-11-27T10:00:00.000Z' } };
  };

  it('names its check, and goes 10 s after its last change', () => {
    const store = storeWithCheck();
    store.getState().tick(T0);
    store.getState().askPauseResume('c1');
    store.getState().answerCheckAction(true);
    store.getState().checkActionDone({ ok: true, value: { kind: 'pause', status: paused(store) } });
    expect(store.getState().checkAction).toMatchObject({
      state: 'done',
      message: 'Payments paused by ops since 10:00:00 UTC: it does not run until resumed',
    });
    store.getState().tick(T0 + 9_999);
    expect(store.getState().checkAction.state).toBe('done');
    store.getState().tick(T0 + 10_000);
    expect(store.getState().checkAction.state).toBe('idle');
  });

  it('goes when the view it was taken from is left', () => {
    const store = storeWithCheck();
    store.getState().tick(T0);
    store.getState().openCheck('c1', false);
    store.getState().askPauseResume('c1');
    store.getState().answerCheckAction(true);
    store.getState().checkActionDone({ ok: true, value: { kind: 'pause', status: paused(store) } });
    expect(store.getState().checkAction.state).toBe('done');
    store.getState().popView();
    expect(store.getState().checkAction.state).toBe('idle');
  });

  it('a run now stays while its runs come in, then goes 10 s after the last landed', () => {
    const store = storeWithCheck();
    store.getState().tick(T0);
    store.getState().askRunNow('c1');
    store.getState().answerCheckAction(true);
    store.getState().checkActionDone({
      ok: true,
      value: { kind: 'run', runs: [run('r1', 'eu-west'), run('r2', 'us-east')] },
    });
    store.getState().tick(T0 + 30_000);
    expect(store.getState().checkAction.state).toBe('done');
    store.getState().applyRuns([run('r1', 'eu-west', { state: 'done', status: 'success', resultId: 'r1' })]);
    store.getState().tick(T0 + 45_000);
    store.getState().applyRuns([run('r2', 'us-east', { state: 'done', status: 'success', resultId: 'r2' })]);
    store.getState().tick(T0 + 54_000);
    expect(store.getState().checkAction.state).toBe('done');
    store.getState().tick(T0 + 55_000);
    expect(store.getState().checkAction.state).toBe('idle');
  });

  it('never stacks: a refusal takes an outcome’s place, and goes 10 s later too', () => {
    const store = storeWithCheck();
    store.getState().tick(T0);
    store.getState().askPauseResume('c1');
    store.getState().answerCheckAction(true);
    store.getState().checkActionDone({ ok: true, value: { kind: 'pause', status: paused(store) } });
    store.getState().tick(T0 + 2_000);
    store.getState().refuseKey('ctrl+r: needs an operate key; this key is read');
    expect(store.getState().checkAction.state).toBe('idle');
    store.getState().tick(T0 + 11_999);
    expect(store.getState().keyRefusal).not.toBeNull();
    store.getState().tick(T0 + 12_000);
    expect(store.getState().keyRefusal).toBeNull();
  });
});
