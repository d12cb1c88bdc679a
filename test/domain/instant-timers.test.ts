// One timer an instant (src/domain/instant-timers.ts): what the schedule's slots and the
// system clock's intervals share. The things due at one instant come together from one
// platform timer; the last one taken out clears it; an item that holds the process refs it.
import { describe, expect, it } from 'vitest';
import { createInstantTimers } from '../../src/domain/instant-timers.js';
import { timerPlatform as platform } from '../helpers/timer-platform.js';

describe('instant timers', () => {
  it('hands over the items of an instant together, from one timer, in the order they were put', () => {
    const p = platform();
    const fired: Array<[number, string[]]> = [];
    const instants = createInstantTimers<string>(p.timersApi, {
      fire: (at, items) => fired.push([at, items]),
    });
    instants.add(500, 'b');
    instants.add(250, 'a');
    instants.add(500, 'c');
    expect(p.pending()).toBe(2);
    expect(p.held()).toBe(0); // nothing holds the process without `held`
    p.elapse(1_000);
    expect(fired).toEqual([
      [250, ['a']],
      [500, ['b', 'c']],
    ]);
    expect(instants.size()).toBe(0);
  });

  it('clears an instant’s timer when its last item is taken out, and every one on clear', () => {
    const p = platform();
    const fired: string[] = [];
    const instants = createInstantTimers<string>(p.timersApi, {
      fire: (_, items) => fired.push(...items),
    });
    instants.add(100, 'a');
    instants.add(100, 'b');
    instants.delete(100, 'a');
    instants.delete(100, 'x'); // not there: nothing changes
    expect(p.pending()).toBe(1);
    instants.delete(100, 'b');
    expect([p.pending(), instants.size()]).toEqual([0, 0]);
    instants.add(200, 'c');
    instants.add(300, 'd');
    instants.clear();
    p.elapse(1_000);
    expect([fired, p.pending()]).toEqual([[], 0]);
  });

  it('holds the process for an instant while one of its items is held', () => {
    const p = platform();
    const holding = new Set<string>(['keep']);
    const instants = createInstantTimers<string>(p.timersApi, {
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
