// The warmer's queue (status/due-queue.ts, status/cache.ts): each check waits for the
// moment it next needs a look, so a turn takes what is due and touches nothing else.
import { describe, expect, it } from 'vitest';
import type { CheckStatus } from '../../../src/api/schemas/index.js';
import type { AccountConfig, CheckConfig } from '../../../src/server/config/schema.js';
import { createStatusCache, LIST_PERIOD } from '../../../src/server/status/cache.js';
import { createDueQueue, type Queued } from '../../../src/server/status/due-queue.js';
import type { StatusInputs } from '../../../src/server/status/inputs.js';

const item = (name: string): Queued & { name: string } => ({ name, due: 0, slot: -1 });

describe('the due queue', () => {
  it('gives what is due by now, earliest first, and keeps the rest', () => {
    const q = createDueQueue<ReturnType<typeof item>>();
    const dues = [50, 10, 40, 30, 20, 60, 5, 45];
    const items = dues.map((due, i) => {
      const it = item(`i${i}`);
      q.put(it, due);
      return it;
    });
    const taken: number[] = [];
    for (let next = q.take(40); next; next = q.take(40)) taken.push(next.due);
    expect(taken).toEqual([5, 10, 20, 30, 40]);
    expect(q.size()).toBe(3);
    expect(items.filter((i) => i.slot >= 0).map((i) => i.due)).toEqual([50, 60, 45]);
  });

  it('moves a queued item to its new moment, earlier or later, with no copy left behind', () => {
    const q = createDueQueue<ReturnType<typeof item>>();
    const [a, b, c] = [item('a'), item('b'), item('c')];
    q.put(a, 10);
    q.put(b, 20);
    q.put(c, 30);
    q.put(a, 35);
    q.put(c, 5);
    expect(q.size()).toBe(3);
    expect([q.take(100)?.name, q.take(100)?.name, q.take(100)?.name, q.take(100)]).toEqual([
      'c',
      'b',
      'a',
      undefined,
    ]);
    q.put(b, -Infinity);
    q.clear();
    expect([q.size(), b.slot, q.take(Infinity)]).toEqual([0, -1, undefined]);
  });
});

describe("the status cache's queue for the warmer", () => {
  const account = { id: 'acme', checks: [] } as unknown as AccountConfig;
  const check = (id: string) => ({ id }) as CheckConfig;
  const status = { status: 'passing' } as CheckStatus;
  const inputs = (refreshAt: number) => ({ refreshAt }) as StatusInputs;
  const keys = (cache: ReturnType<typeof createStatusCache>, now: number) => {
    const out: string[] = [];
    for (let next = cache.nextDue(now); next; next = cache.nextDue(now)) out.push(next.checkId);
    return out;
  };

  it('queues a check never read at once, then at its status until or slow read, whichever is first', () => {
    const cache = createStatusCache();
    const [a, b, c] = [check('a'), check('b'), check('c')];
    for (const x of [a, b, c]) cache.watch(account, x);
    expect(keys(cache, 0).sort()).toEqual(['a', 'b', 'c']);
    cache.setInputs(cache.ticket(account, a), inputs(1_000));
    cache.set(cache.ticket(account, a), LIST_PERIOD, 0, status, 300);
    cache.setInputs(cache.ticket(account, b), inputs(200));
    cache.set(cache.ticket(account, b), LIST_PERIOD, 0, status, Infinity);
    // c was taken and never read: it waits for the warmer to say it looked.
    expect(keys(cache, 199)).toEqual([]);
    expect(keys(cache, 250)).toEqual(['b']);
    cache.looked('acme', 'b', 250, 8_250);
    cache.looked('acme', 'c', 250, 8_250);
    expect(keys(cache, 300)).toEqual(['a']);
    // b's slow read is still due (it failed), c was never read: both again 8 s on, not before.
    expect(keys(cache, 8_249)).toEqual([]);
    expect(keys(cache, 8_250).sort()).toEqual(['b', 'c']);
  });

  it('queues again at once what a drop, an expiry, a forget or the clock going back leaves to look at', () => {
    const cache = createStatusCache();
    const [a, b] = [check('a'), check('b')];
    for (const x of [a, b]) {
      cache.setInputs(cache.ticket(account, x), inputs(1_000));
      cache.set(cache.ticket(account, x), LIST_PERIOD, 0, status, 1_000);
    }
    keys(cache, 0);
    expect(keys(cache, 500)).toEqual([]);
    cache.drop(account, a);
    expect(keys(cache, 500)).toEqual(['a']);
    cache.expire();
    expect(keys(cache, 500).sort()).toEqual(['a', 'b']);
    cache.forget(new Map([['acme', new Set(['b'])]]));
    expect(keys(cache, 500)).toEqual(['b']);
    cache.lookAll();
    expect(keys(cache, 500).sort()).toEqual(['a', 'b']);
    const before = cache.generation();
    cache.clear();
    expect([keys(cache, Infinity), cache.generation()]).toEqual([[], before + 1]);
  });
});
