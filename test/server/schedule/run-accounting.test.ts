// The accounting behind "every due run is stored or counted": skips per check
// over a sliding window, the status sentence, and serve's backlog line.
import { describe, expect, it } from 'vitest';
import {
  backlogLine,
  createRunAccounting,
  SKIP_WINDOW_MS,
  skippedReason,
} from '../../../src/server/schedule/run-accounting.js';

const stats = (due: number, stored: number, skipped: number, queued = 0, running = 0) => ({
  due,
  stored,
  skipped,
  queued,
  running,
});

describe('run accounting', () => {
  it('counts skips per check over a sliding window, and says when a check starts skipping', () => {
    const a = createRunAccounting();
    const t = 1_700_000_000_000;
    expect(a.skip('acc', 'x', t)).toBe(true); // first: the status changes
    expect(a.skip('acc', 'x', t + 1_000)).toBe(false);
    expect(a.skip('acc', 'y', t + 2_000)).toBe(true);
    expect(a.skippedRecently('acc', 'x', t + 2_000)).toBe(2);
    expect(a.skippedRecently('acc', 'x', t + SKIP_WINDOW_MS + 500)).toBe(1);
    expect(a.skippedRecently('acc', 'x', t + SKIP_WINDOW_MS + 1_000)).toBe(0);
    expect(a.skip('acc', 'x', t + SKIP_WINDOW_MS + 2_000)).toBe(true); // a new episode
    a.due();
    a.stored();
    expect(a.totals()).toEqual({ due: 1, stored: 1, skipped: 4 });
  });

  it('words the status reason', () => {
    expect(skippedReason(1)).toBe(
      '1 scheduled run skipped in the last 10 min: the service is behind schedule',
    );
    expect(skippedReason(7)).toBe(
      '7 scheduled runs skipped in the last 10 min: the service is behind schedule',
    );
  });

  it('writes a backlog line only while runs are skipped or waiting', () => {
    expect(backlogLine(stats(100, 90, 0), stats(10_100, 10_090, 0))).toBeNull();
    expect(backlogLine(stats(100, 90, 0), stats(10_100, 9_890, 150, 40, 16))).toBe(
      'behind schedule: in the last minute 10000 runs came due, 9800 were stored, 150 skipped; 40 waiting to start',
    );
    expect(backlogLine(stats(0, 0, 0), stats(10, 0, 0, 10))).toContain('10 waiting to start');
  });
});
