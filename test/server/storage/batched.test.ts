// Group commit (storage/batched.ts): calls made while a batch is out go together
// in the next, and one bad item fails only its own call.
import { setImmediate as turn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { batched } from '../../../src/server/storage/batched.js';

/** A promise the test settles itself: a batch stays out until it is opened. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe('batched', () => {
  it('sends the calls of one tick together, then those made while batches were out', async () => {
    const sent: number[][] = [];
    const out = gate();
    const double = batched(
      async (items: number[]) => {
        sent.push(items);
        await out.opened;
        return items.map((n) => n * 2);
      },
      { max: 3, inFlight: 1 },
    );
    const first = Promise.all([1, 2, 3, 4].map(double));
    await turn();
    expect(sent).toEqual([[1, 2, 3]]);
    // Made while the first batch is out: they wait for it.
    const later = Promise.all([5, 6].map(double));
    out.open();
    expect(await first).toEqual([2, 4, 6, 8]);
    expect(await later).toEqual([10, 12]);
    expect(sent).toEqual([
      [1, 2, 3],
      [4, 5, 6],
    ]);
  });

  it('fails only the call whose item fails, trying the others of its batch alone', async () => {
    const sent: string[][] = [];
    const shout = batched(async (items: string[]) => {
      sent.push(items);
      if (items.includes('bad')) throw new Error(`cannot take ${items.join(',')}`);
      return items.map((s) => s.toUpperCase());
    });
    const answers = await Promise.allSettled(['a', 'bad', 'c'].map(shout));
    expect(answers).toEqual([
      { status: 'fulfilled', value: 'A' },
      { status: 'rejected', reason: new Error('cannot take bad') },
      { status: 'fulfilled', value: 'C' },
    ]);
    expect(sent).toEqual([['a', 'bad', 'c'], ['a'], ['bad'], ['c']]);
  });

  it('with gatherMs, waits that long from the first call for others to go with it', async () => {
    const sent: number[][] = [];
    const echo = batched(
      async (items: number[]) => {
        sent.push(items);
        return items;
      },
      { gatherMs: 30, inFlight: 1 },
    );
    const first = echo(1);
    // A call of a later turn, well within the wait: the same batch.
    await turn();
    const second = echo(2);
    expect(await Promise.all([first, second])).toEqual([1, 2]);
    expect(sent).toEqual([[1, 2]]);
    // Without the wait, each tick's call goes alone.
    const alone = batched(async (items: number[]) => (sent.push(items), items), { inFlight: 1 });
    await alone(3);
    await turn();
    await alone(4);
    expect(sent).toEqual([[1, 2], [3], [4]]);
  });

  it('with gatherMs, keeps a call made while a batch is out for the whole wait, not the batch’s return', async () => {
    const sent: number[][] = [];
    const out = gate();
    const back = gate();
    const echo = batched(
      async (items: number[]) => {
        sent.push(items);
        out.open();
        await back.opened;
        return items;
      },
      { gatherMs: 100, inFlight: 2 },
    );
    const first = echo(1);
    await out.opened; // the first batch is out, its gather over
    const during = echo(2);
    back.open();
    await first; // it returned: the second call still waits for its gather
    await turn();
    expect(sent).toEqual([[1]]);
    const later = echo(3);
    expect(await Promise.all([during, later])).toEqual([2, 3]);
    expect(sent).toEqual([[1], [2, 3]]);
  });
});
