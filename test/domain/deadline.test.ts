// domain/deadline.ts: a stop and a time together, kept by its timer through collections.
import { getEventListeners } from 'node:events';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { deadline } from '../../src/domain/deadline.js';

// A full collection on demand, as `node --expose-gc` gives it.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Collects a few times while `ms` pass. */
async function collectFor(ms: number) {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    gc();
    await sleep(5);
  }
}

describe('deadline', () => {
  it('times out after its time though collections run meanwhile, and lets go of the outer signal', async () => {
    const outer = new AbortController();
    const start = performance.now();
    const { signal } = deadline(outer.signal, 60);
    let firedAfter = -1;
    signal.addEventListener('abort', () => (firedAfter = performance.now() - start));
    expect(getEventListeners(outer.signal, 'abort')).toHaveLength(1);
    // Collections meanwhile (AbortSignal.any would lose its timeout to one: deadline.ts).
    for (let i = 0; i < 400 && !signal.aborted; i++) await collectFor(5);
    expect(signal.aborted).toBe(true);
    expect(firedAfter).toBeGreaterThanOrEqual(59);
    expect((signal.reason as DOMException).name).toBe('TimeoutError');
    // The time ran out first: the long-lived signal keeps no listener of it.
    expect(getEventListeners(outer.signal, 'abort')).toHaveLength(0);
  });

  it('aborts with the outer signal’s reason first, and its timer no longer fires', async () => {
    const outer = new AbortController();
    const { signal } = deadline(outer.signal, 40);
    const why = new Error('the service is stopping');
    outer.abort(why);
    expect(signal.reason).toBe(why);
    await sleep(60);
    expect(signal.reason).toBe(why);
    // Already aborted: aborted at once.
    expect(deadline(outer.signal, 1_000).signal.reason).toBe(why);
  });

  it('done() ends it: no abort later, and no listener left on the outer signal', async () => {
    const outer = new AbortController();
    const d = deadline(outer.signal, 30);
    d.done();
    expect(getEventListeners(outer.signal, 'abort')).toHaveLength(0);
    await sleep(50);
    outer.abort();
    expect(d.signal.aborted).toBe(false);
    // Without an outer signal: the time alone.
    const alone = deadline(undefined, 20);
    await sleep(40);
    expect((alone.signal.reason as DOMException).name).toBe('TimeoutError');
  });
});
