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

  it('with endOfTurn, the calls of one turn of the event loop go together, each from its own callback', async () => {
    const sent: number[][] = [];
    const echo = batched(async (items: number[]) => (sent.push(items), items), {
      inFlight: 1,
      endOfTurn: true,
    });
    const alone = batched(async (items: number[]) => (sent.push(items), items), { inFlight: 1 });
    // Two callbacks of one turn (as a tick's slots, or messages drained together): each
    // ends its own tick, so without endOfTurn each call goes alone.
    const calls = (call: (n: number) => Promise<number>, a: number, b: number) =>
      new Promise<number[]>((resolve) => {
        let first: Promise<number>;
        setImmediate(() => (first = call(a)));
        setImmediate(() => void Promise.all([first, call(b)]).then(resolve));
      });
    expect(await calls(echo, 1, 2)).toEqual([1, 2]);
    expect(sent).toEqual([[1, 2]]);
    expect(await calls(alone, 3, 4)).toEqual([3, 4]);
    expect(sent).toEqual([[1, 2], [3], [4]]);
    // A call of a later turn does not wait for one: it is sent at the end of its own.
    await echo(5);
    await turn();
    await echo(6);
    expect(sent.slice(3)).toEqual([[5], [6]]);
  });
});
