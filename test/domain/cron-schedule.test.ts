import { describe, expect, it } from 'vitest';
import { cronProblem, longestGapMs, nextDue, previousDue } from '../../src/domain/cron-schedule.js';
import { judgeHeartbeat } from '../../src/domain/heartbeat-rules.js';

const berlin = (expression: string) => ({ expression, timezone: 'Europe/Berlin' });
const at = (iso: string) => Date.parse(iso);
/** The next `n` due times after `from`, as ISO strings. */
function dues(expression: string, from: string, n: number): string[] {
  const out: string[] = [];
  let t = at(from);
  for (let i = 0; i < n; i++) {
    t = nextDue(berlin(expression), t)!;
    out.push(new Date(t).toISOString());
  }
  return out;
}

describe('cron schedules across daylight saving in Europe/Berlin (cronie)', () => {
  it('spring-forward: a skipped 02:30 is due at 03:00, the first minute after the jump', () => {
    expect(dues('30 2 * * *', '2026-03-27T12:00:00Z', 3)).toEqual([
      '2026-03-28T01:30:00.000Z', // 02:30 CET
      '2026-03-29T01:00:00.000Z', // 03:00 CEST
      '2026-03-30T00:30:00.000Z', // 02:30 CEST
    ]);
  });

  it('spring-forward: the skipped half hours fold into one due time at 03:00', () => {
    expect(dues('*/30 * * * *', '2026-03-29T00:10:00Z', 3)).toEqual([
      '2026-03-29T00:30:00.000Z', // 01:30 CET
      '2026-03-29T01:00:00.000Z', // 03:00 CEST (02:00 and 02:30 skipped)
      '2026-03-29T01:30:00.000Z', // 03:30 CEST
    ]);
  });

  it('fall-back: a repeated 02:30 is due once, at its first occurrence (summer time)', () => {
    expect(dues('30 2 * * *', '2026-10-23T12:00:00Z', 3)).toEqual([
      '2026-10-24T00:30:00.000Z',
      '2026-10-25T00:30:00.000Z', // 02:30 CEST, not 02:30 CET
      '2026-10-26T01:30:00.000Z',
    ]);
  });

  it('fall-back: the repeated hour is not due again, even asked from inside it', () => {
    expect(dues('*/30 * * * *', '2026-10-24T23:40:00Z', 3)).toEqual([
      '2026-10-25T00:00:00.000Z', // 02:00 CEST
      '2026-10-25T00:30:00.000Z', // 02:30 CEST
      '2026-10-25T02:00:00.000Z', // 03:00 CET
    ]);
    expect(dues('*/30 * * * *', '2026-10-25T01:10:00Z', 1)).toEqual(['2026-10-25T02:00:00.000Z']);
  });

  it('the previous due time and the longest gap see the repeated hour', () => {
    expect(previousDue(berlin('0 3 * * *'), at('2026-03-29T01:00:00Z'), 2 * 86_400_000)).toBe(
      at('2026-03-29T01:00:00Z'),
    );
    expect(longestGapMs(berlin('0 * * * *'), at('2026-01-10T00:00:00Z'))).toBe(2 * 3_600_000);
    expect(longestGapMs(berlin('0 3 * * *'), at('2026-01-10T00:00:00Z'))).toBe(25 * 3_600_000);
  });

  it('refuses a bad expression or zone, naming it', () => {
    expect(cronProblem('0 3 * * *', 'Europe/Berlin')).toBeUndefined();
    expect(cronProblem('0 3 * *', 'Europe/Berlin')).toMatch(/5 fields/);
    expect(cronProblem('0 25 * * *', 'Europe/Berlin')).toMatch(/not a cron expression/);
    expect(cronProblem('0 3 * * *', 'Mars/Olympus')).toMatch(/IANA/);
  });
});

describe('a schedule whose runs are years apart', () => {
  it('a leap day’s job has its gap of four years, so its missed run is seen', () => {
    const leap = { expression: '0 3 29 2 *', timezone: 'UTC' };
    expect(longestGapMs(leap, at('2026-11-30T00:00:00Z'))).toBe(
      at('2032-02-29T03:00:00Z') - at('2028-02-29T03:00:00Z'),
    );
    const due = at('2028-02-29T03:00:00Z');
    const plan = { schedule: leap, graceMs: 3_600_000, maxRunMs: 3_600_000 };
    const facts = { serviceStartedAt: due - 1e9, changedAt: null, lastEndAt: due - 1e9, openStartAt: null };
    expect(judgeHeartbeat(plan, { ...facts, now: due + 3_600_000 }).missed).toEqual({ dueAt: due });
  });
});
