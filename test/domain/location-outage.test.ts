// The broken-location rule on plain data and an injected instant: when it declares,
// when it does not (one location, one host, targets broken everywhere, too few), and
// when an outage ends (a whole window below half the threshold; flapping keeps it).
import { describe, expect, it } from 'vitest';
import {
  decideOutage,
  OUTAGE_DEFAULTS,
  outageWords,
  type CheckHere,
  type Outage,
  type OutageInput,
} from '../../src/domain/location-outage.js';

const T = Date.UTC(2026, 10, 28, 3, 12);
const s = (n: number) => n * 1000;

/** n checks at the location, each its own host unless `hosts` says how many distinct. */
function checks(
  n: number,
  o: { failing?: number; since?: number; elsewhere?: boolean | null; hosts?: number } = {},
) {
  return Array.from({ length: n }, (_, i): CheckHere => ({
    id: `c${i}`,
    host: `h${i % (o.hosts ?? n)}`,
    failingSince: i < (o.failing ?? 0) ? (o.since ?? T - s(30)) : null,
    passesElsewhere: o.elsewhere === undefined ? true : o.elsewhere,
  }));
}

const input = (over: Partial<OutageInput>): OutageInput => ({
  now: T,
  locationCount: 3,
  checks: [],
  runnerGone: false,
  settings: OUTAGE_DEFAULTS,
  ...over,
});

describe('declaring a location outage', () => {
  it.each([
    ['12 of 14 failing here, passing elsewhere', { checks: checks(14, { failing: 12 }) }, 'declared'],
    ['exactly the minimum: 5 of 10, five hosts', { checks: checks(10, { failing: 5 }) }, 'declared'],
    ['4 failing: fewer than minChecks', { checks: checks(6, { failing: 4 }) }, null],
    ['5 of 11: under half', { checks: checks(11, { failing: 5 }) }, null],
    [
      '8 failing on 2 hosts: broken targets, not a location',
      { checks: checks(8, { failing: 8, hosts: 2 }) },
      null,
    ],
    ['failing everywhere too: the targets', { checks: checks(10, { failing: 10, elsewhere: false }) }, null],
    [
      'turned failing 10 minutes ago: not at once',
      { checks: checks(10, { failing: 10, since: T - s(600) }) },
      null,
    ],
    ['one location: nothing to compare', { checks: checks(10, { failing: 10 }), locationCount: 1 }, null],
    ['one check at the location', { checks: checks(1, { failing: 1 }) }, null],
    ['two checks at the location', { checks: checks(2, { failing: 2 }) }, null],
    [
      'checks that run only here are not counted',
      { checks: checks(10, { failing: 10, elsewhere: null }) },
      null,
    ],
  ])('%s', (_name, over, change) => {
    const d = decideOutage(null, input(over));
    expect(d.change).toBe(change);
    expect(d.outage !== null).toBe(change === 'declared');
  });

  it('two thirds passing elsewhere is enough; less is not', () => {
    const mixed = (passing: number) =>
      checks(9, { failing: 9 }).map((c, i) => ({ ...c, passesElsewhere: i < passing }));
    expect(decideOutage(null, input({ checks: mixed(6) })).change).toBe('declared');
    expect(decideOutage(null, input({ checks: mixed(5) })).change).toBeNull();
  });

  it('a remote location whose runners are gone is one outage, whatever its checks say', () => {
    const d = decideOutage(null, input({ runnerGone: true, checks: checks(3) }));
    expect(d).toMatchObject({ change: 'declared', outage: { noRunner: true, since: T } });
    const back = decideOutage(d.outage, input({ now: T + s(60), checks: checks(3) }));
    expect(back.change).toBe('ended');
  });
});

describe('ending a location outage', () => {
  const declared: Outage = { since: T - s(300), quietSince: null, noRunner: false };

  it('ends after a whole window below half the threshold, not before', () => {
    const quiet = input({ checks: checks(10, { failing: 2 }) }); // 20 % < 25 %
    const first = decideOutage(declared, { ...quiet, now: T });
    expect(first).toMatchObject({ change: null, outage: { quietSince: T } });
    const almost = decideOutage(first.outage, { ...quiet, now: T + s(119) });
    expect(almost.change).toBeNull();
    const over = decideOutage(almost.outage, { ...quiet, now: T + s(120) });
    expect(over).toMatchObject({ change: 'ended', outage: null });
  });

  it('flapping across half the threshold starts the quiet window again', () => {
    let state: Outage | null = declared;
    const at = (n: number, failing: number) =>
      decideOutage(state, input({ now: T + s(n), checks: checks(10, { failing }) }));
    for (const [n, failing] of [
      [0, 2],
      [100, 3], // 30 % ≥ 25 %: not quiet
      [110, 2],
      [200, 2],
    ] as const) {
      const d = at(n, failing);
      expect(d.change).toBeNull();
      state = d.outage;
    }
    expect(state?.quietSince).toBe(T + s(110));
    expect(at(230, 2).change).toBe('ended');
  });

  it('names the location, the counts and the likely cause', () => {
    expect(outageWords('Singapore', { failing: 12, total: 14 }, '03:12', false)).toBe(
      "Singapore: 12 of 14 checks failing since 03:12 while they pass elsewhere; the location's network is the likely cause",
    );
  });
});
