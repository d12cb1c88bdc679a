// The status engine computes statuses through createLimit (serial.ts): a cold list
// of many checks must never put every check's queries in front of the database at once.
import { setImmediate as turn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createLimit } from '../../../src/server/status/serial.js';

describe('createLimit', () => {
  it('runs at most n jobs at once, the others in call order, and passes results and errors through', async () => {
    const limit = createLimit(3);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const job = (i: number) => async () => {
      started.push(i);
      running++;
      most = Math.max(most, running);
      // Held over a turn of the event loop, so the jobs called after it find it running.
      await turn();
      running--;
      if (i === 7) throw new Error('job 7 failed');
      return i * 2;
    };
    const settled = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => limit(job(i))));
    expect(most).toBe(3);
    expect(started).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(settled[4]).toEqual({ status: 'fulfilled', value: 8 });
    expect(settled[7]).toMatchObject({ status: 'rejected', reason: new Error('job 7 failed') });
    // A failed job frees its place: everything after it ran.
    expect(settled.filter((s) => s.status === 'fulfilled')).toHaveLength(19);
  });
});
