// One timer an instant (src/domain/instant-timers.ts): what the schedule's slots and the
// system clock's intervals share. The things due at one instant come together from one
// platform timer; the last one taken out clears it; an item that holds the process refs it.
import { describe, expect, it } from 'vitest';
import { createInstantTimers } from '../../src/domain/instant-timers.js';

function platform() {
  let now = 0;
  const timers = new Map<number, { at: number; fn: () => void; refd: boolean }>();
  let seq = 0;
  return {
    api: {
      now: () => now,
      setTimeout(fn: () => void, ms: number) {
        const id = ++seq;
        timers.set(id, { at: now + ms, fn, refd: true });
        return {
          ref: () => void (timers.get(id)!.refd = true),
          unref: () => void (timers.get(id)!.refd = false),
          id,
        };
      },
      clearTimeout: (timer: { id: number }) => void timers.delete(timer.id),
    },
    /** Moves the time to `to`, firing what falls due on the way, in order. */
    runTo(to: number) {
      for (;;) {
        const next = [...timers.entries()].filter(([, t]) => t.at <= to).sort((a, b) => a[1].at - b[1].at)[0];
        if (!next) break;
        now = next[1].at;
        timers.delete(next[0]);
        next[1].fn();
      }
      now = to;
    },
    waiting: () => timers.size,
    held: () => [...timers.values()].filter((t) => t.refd).length,
  };
}

describe('instant timers', () => {
  it('hands over the items of an instant together, from one timer, in the order they were put', () => {
    const p = platform();
    const fired: Array<[number, string[]]> = [];
    const instants = createInstantTimers<string, ReturnType<typeof p.api.setTimeout>>(p.api, {
      fire: (at, items) => fired.push([at, items]),
    });
    instants.add(500, 'b');
    instants.add(250, 'a');
    instants.add(500, 'c');
    expect(p.waiting()).toBe(2);
    expect(p.held()).toBe(0); // nothing holds the process without `held`
    p.runTo(1_000);
    expect(fired).toEqual([
      [250, ['a']],
      [500, ['b', 'c']],
    ]);
    expect(instants.size()).toBe(0);
  });

  it('clears an instant’s timer when its last item is taken out, and every one on clear', () => {
    const p = platform();
    const fired: string[] = [];
    const instants = createInstantTimers<string, ReturnType<typeof p.api.setTimeout>>(p.api, {
      fire: (_, items) => fired.push(...items),
    });
    instants.add(100, 'a');
    instants.add(100, 'b');
    instants.delete(100, 'a');
    instants.delete(100, 'x'); // not there: nothing changes
    expect(p.waiting()).toBe(1);
    instants.delete(100, 'b');
    expect([p.waiting(), instants.size()]).toEqual([0, 0]);
    instants.add(200, 'c');
    instants.add(300, 'd');
    instants.clear();
    p.runTo(1_000);
    expect([fired, p.waiting()]).toEqual([[], 0]);
  });

  it('holds the process for an instant while one of its items is held', () => {
    const p = platform();
    const holding = new Set<string>(['keep']);
    const instants = createInstantTimers<string, ReturnType<typeof p.api.setTimeout>>(p.api, {
      fire: () => undefined,
      held: (item) => holding.has(item),
    });
    instants.add(100, 'idle');
    expect(p.held()).toBe(0);
    instants.add(100, 'keep');
    expect(p.held()).toBe(1);
    holding.delete('keep');
    instants.hold(100);
    expect(p.held()).toBe(0);
    holding.add('idle');
    instants.delete(100, 'keep'); // what is left still holds
    expect(p.held()).toBe(1);
  });
});
