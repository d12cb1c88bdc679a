// Group commit (storage/batched.ts): calls made while a batch is out go together
// in the next, and one bad item fails only its own call.
import { describe, expect, it } from 'vitest';
import { batched } from '../../src/server/storage/batched.js';

describe('batched', () => {
  it('sends the calls of one tick together, then those made while batches were out', async () => {
    const sent: number[][] = [];
    const double = batched(
      async (items: number[]) => {
        sent.push(items);
        await new Promise((resolve) => setTimeout(resolve, 5));
        return items.map((n) => n * 2);
      },
      { max: 3, inFlight: 1 },
    );
    const first = Promise.all([1, 2, 3, 4].map(double));
    // Made while the first batch is out: they wait for it.
    const later = Promise.all([5, 6].map(double));
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

  it.each([
    ['tick', [[1], [2], [3]]],
    ['turn', [[1, 2, 3]]],
  ] as const)('gathering by %s, three timers of one turn make %j', async (gather, batches) => {
    const sent: number[][] = [];
    const echo = batched(
      async (items: number[]) => {
        sent.push(items);
        return items;
      },
      { gather, inFlight: 1 },
    );
    const calls: Array<Promise<number>> = [];
    // Timers due together run in one turn of the event loop, each a tick of its own.
    await new Promise<void>((resolve) => {
      for (const n of [1, 2, 3])
        setTimeout(() => {
          calls.push(echo(n));
          if (n === 3) resolve();
        }, 0);
    });
    expect(await Promise.all(calls)).toEqual([1, 2, 3]);
    expect(sent).toEqual(batches);
  });
});
