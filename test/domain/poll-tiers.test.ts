// The tiering policy of the statuses poll: every boundary of pages, refresh and rate.
import { describe, expect, it } from 'vitest';
import {
  describeSweep,
  describeTiers,
  planTiers,
  sweepDue,
  type TierPlan,
} from '../../src/domain/poll-tiers.js';

describe('planTiers', () => {
  it.each<[string, number, number, number, TierPlan]>([
    ['one page', 1, 10_000, 2, { tiered: false, sweepEvery: 1, minGap: 1 }],
    ['10 pages: still whole every refresh', 10, 10_000, 2, { tiered: false, sweepEvery: 1, minGap: 1 }],
    ['11 pages: tiered, every 2nd refresh', 11, 10_000, 2, { tiered: true, sweepEvery: 2, minGap: 1 }],
    ['100 pages at 10 s', 100, 10_000, 2, { tiered: true, sweepEvery: 10, minGap: 2 }],
    ['100 pages at 5 s', 100, 5_000, 2, { tiered: true, sweepEvery: 10, minGap: 3 }],
    // 10 requests a second at 1 s: 2 hot, 8 for the sweep: 100 pages take 13 refreshes.
    ['100 pages at 1 s: the rate limit decides', 100, 1_000, 2, { tiered: true, sweepEvery: 13, minGap: 13 }],
    ['100 pages at 5 s with 30 hot pages', 100, 5_000, 30, { tiered: true, sweepEvery: 10, minGap: 5 }],
    ['100 pages at 5 s with 60 hot pages', 100, 5_000, 60, { tiered: true, sweepEvery: 100, minGap: 100 }],
    ['1,000 pages at 5 s', 1_000, 5_000, 2, { tiered: true, sweepEvery: 100, minGap: 21 }],
  ])('%s', (_name, pages, refreshMs, hot, plan) => {
    expect(planTiers(pages, refreshMs, hot)).toEqual(plan);
  });

  it('keeps one console to a fifth of the rate limit on average', () => {
    for (const pages of [11, 50, 100, 400, 1_000])
      for (const refreshMs of [1_000, 2_000, 5_000, 10_000, 60_000]) {
        const plan = planTiers(pages, refreshMs);
        const perSecond = (2 + pages / plan.sweepEvery) / (refreshMs / 1_000);
        expect(perSecond, `${pages} pages at ${refreshMs} ms`).toBeLessThanOrEqual(10);
      }
  });
});

describe('sweepDue', () => {
  const plan: TierPlan = { tiered: true, sweepEvery: 10, minGap: 3 };
  it.each<[string, TierPlan, number | undefined, boolean, boolean]>([
    ['not tiered: always', { tiered: false, sweepEvery: 1, minGap: 1 }, 0, false, true],
    ['the first poll', plan, undefined, false, true],
    ['right after a sweep', plan, 0, false, false],
    ['the 9th refresh after', plan, 8, false, false],
    ['the 10th refresh after', plan, 9, false, true],
    ['past due', plan, 15, false, true],
    ['a check left the hot lists, too soon', plan, 1, true, false],
    ['a check left the hot lists, at the gap', plan, 2, true, true],
  ])('%s', (_name, p, since, left, due) => {
    expect(sweepDue({ plan: p, sinceSweep: since, leftHot: left })).toBe(due);
  });
});

describe('describeTiers', () => {
  it.each<[TierPlan, number, string | null]>([
    [{ tiered: false, sweepEvery: 1, minGap: 1 }, 10_000, null],
    [{ tiered: true, sweepEvery: 10, minGap: 3 }, 5_000, 'failing+degraded every 5 s, all checks every 50 s'],
    [
      { tiered: true, sweepEvery: 12, minGap: 3 },
      10_000,
      'failing+degraded every 10 s, all checks every 2 min',
    ],
  ])('%j at %i ms', (plan, refreshMs, text) => {
    expect(describeTiers(plan, refreshMs)).toBe(text);
  });
});

describe('describeSweep', () => {
  it.each<[TierPlan, number, string | null]>([
    [{ tiered: false, sweepEvery: 1, minGap: 1 }, 5_000, null],
    [{ tiered: true, sweepEvery: 10, minGap: 3 }, 5_000, 'all checks every 50 s'],
  ])('%j at %i ms', (plan, refreshMs, text) => {
    expect(describeSweep(plan, refreshMs)).toBe(text);
  });
});
