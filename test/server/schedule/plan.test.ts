// The schedule's offsets, without timers: even over the period, the same after
// a restart, and a new check placed without moving any other.
import { describe, expect, it } from 'vitest';
import type { ServiceConfig } from '../../../src/server/config/schema.js';
import {
  catchUpAt,
  followingDueAt,
  gridMs,
  nextDueAt,
  ownerOf,
  planSlots,
  slotOffsetMs,
  TICK_MS,
} from '../../../src/server/schedule/plan.js';
import { slotKey } from '../../../src/domain/keys.js';
import { accountConfig, TEST_ACCOUNT, type TestCheck } from '../../helpers/configs.js';

const LOCATIONS = [
  { id: 'eu-west', name: 'Frankfurt', region: 'eu-central-1' },
  { id: 'us-east', name: 'Virginia', region: 'us-east-1' },
  { id: 'ap-south', name: 'Singapore', region: 'ap-southeast-1' },
];

function config(n: number, extra: TestCheck[] = []): ServiceConfig {
  return accountConfig({
    locations: LOCATIONS,
    checks: [
      ...Array.from({ length: n }, (_, i) => ({
        id: `c${i}`,
        target: 'http://127.0.0.1:9/',
        locations: ['eu-west'],
      })),
      ...extra,
    ],
  });
}

const offsets = (c: ServiceConfig) => new Map(planSlots(c).map((s) => [s.key, s.offsetMs]));

describe('schedule offsets', () => {
  it('spreads 10,000 checks at 60 s evenly: about 167 runs in every second, no bursts', () => {
    const slots = planSlots(config(10_000));
    expect(slots).toHaveLength(10_000);
    const perSecond = new Array<number>(60).fill(0);
    for (const slot of slots) {
      expect(slot.offsetMs).toBeGreaterThanOrEqual(0);
      expect(slot.offsetMs).toBeLessThan(60_000);
      perSecond[Math.floor(slot.offsetMs / 1000)]!++;
    }
    // A uniform spread puts 166.7 in each second, with a standard deviation of ~12.8:
    // every second within five of those (the hash is fixed, so this never flickers).
    for (const n of perSecond) expect(Math.abs(n - 10_000 / 60)).toBeLessThan(64);
    // Every offset is on a 1 m period's grid (half a second: 120 instants), and no
    // instant of it holds more than twice its share (~83): the runs of a tick go
    // together, and no tick is a burst.
    expect(gridMs(60_000)).toBe(500);
    const perTick = new Array<number>(60_000 / 500).fill(0);
    for (const slot of slots) {
      expect(slot.offsetMs % 500).toBe(0);
      perTick[slot.offsetMs / 500]!++;
    }
    expect(Math.min(...perTick)).toBeGreaterThan(0);
    expect(Math.max(...perTick)).toBeLessThan((2 * 10_000) / perTick.length);
  });

  it('puts each period on the coarsest grid that still holds 100 instants of it: fewer ticks, small bursts', () => {
    const cases: Array<[string, number, number]> = [
      ['5s', 5_000, 250],
      ['25s', 25_000, 250],
      ['49s', 49_000, 250],
      ['50s', 50_000, 500],
      ['1m', 60_000, 500],
      ['99s', 99_000, 500],
      ['100s', 100_000, 1_000],
      ['5m', 300_000, 1_000],
      ['1h', 3_600_000, 1_000],
    ];
    for (const [frequency, periodMs, grid] of cases) {
      expect(gridMs(periodMs), frequency).toBe(grid);
      // The grids nest in the quarter-second one, so checks on different grids share its ticks.
      expect(grid % TICK_MS).toBe(0);
      expect(periodMs % grid).toBe(0);
      // At least 100 instants a period on a coarser grid; the next coarser one would hold fewer.
      if (grid > TICK_MS) expect(periodMs / grid, frequency).toBeGreaterThanOrEqual(100);
      if (grid < 1_000) expect(periodMs / (2 * grid), frequency).toBeLessThan(100);
    }
    // 500 checks at 100 s (5 runs a second): on the 1 s grid every run falls on a whole
    // second, about 5 a tick; on 250 ms they fell due in about 4 ticks a second.
    const slow = planSlots(
      config(
        0,
        Array.from({ length: 500 }, (_, i) => ({
          id: `s${i}`,
          target: 'http://127.0.0.1:9/',
          frequency: '100s',
          locations: ['eu-west'],
        })),
      ),
    );
    const instants = new Map<number, number>();
    for (const { offsetMs } of slow) instants.set(offsetMs, (instants.get(offsetMs) ?? 0) + 1);
    for (const at of instants.keys()) expect(at % 1_000).toBe(0);
    expect(instants.size).toBeLessThanOrEqual(100);
    expect(Math.max(...instants.values())).toBeLessThanOrEqual(2 * 5); // twice its share at most
  });

  it('gives each location of a check its own offset', () => {
    const slots = planSlots(
      config(0, [
        {
          id: 'x',
          name: 'x',
          type: 'tcp',
          target: 'h:1',
          frequency: '30s',
          locations: ['eu-west', 'us-east', 'ap-south'],
        },
      ]),
    );
    expect(slots.map((s) => s.location.id)).toEqual(['eu-west', 'us-east', 'ap-south']);
    expect(new Set(slots.map((s) => s.offsetMs)).size).toBe(3);
    for (const s of slots) expect(s.offsetMs).toBe(slotOffsetMs(TEST_ACCOUNT, 'x', s.location.id, 30_000));
  });

  it('keeps every offset across a restart: the same ids give the same instants', () => {
    expect(offsets(config(500))).toEqual(offsets(config(500)));
    // Anchored to the epoch, not to the start: two starts a few seconds apart agree on the next run.
    const [slot] = planSlots(config(1));
    const first = nextDueAt(1_700_000_000_000, slot!.periodMs, slot!.offsetMs);
    const later = nextDueAt(1_700_000_004_321, slot!.periodMs, slot!.offsetMs);
    expect(later === first || later === first + slot!.periodMs).toBe(true);
    expect((first - slot!.offsetMs) % slot!.periodMs).toBe(0);
  });

  it('places a new check without shifting any other', () => {
    const before = offsets(config(1_000));
    const after = offsets(
      config(1_000, [
        { id: 'new', name: 'new', type: 'api', target: 'http://h/', locations: ['eu-west', 'us-east'] },
      ]),
    );
    expect(after.size).toBe(before.size + 2);
    for (const [key, offset] of before) expect(after.get(key)).toBe(offset);
  });

  it('leaves out disabled checks, and the next due instant is at or after now, on the offset', () => {
    const keys = planSlots(
      config(2, [
        { id: 'off', name: 'off', type: 'api', target: 'http://h/', locations: ['eu-west'], enabled: false },
      ]),
    ).map((s) => s.check.id);
    expect(keys).toEqual(['c0', 'c1']);
    expect(nextDueAt(60_000, 60_000, 0)).toBe(60_000);
    expect(nextDueAt(60_001, 60_000, 0)).toBe(120_000);
    expect(nextDueAt(60_001, 60_000, 59_999)).toBe(119_999);
    expect(nextDueAt(59_999, 60_000, 59_999)).toBe(59_999);
  });

  it('runs overdue slots soon, spread at no more than 200 a second, then back on their offsets', () => {
    const slots = planSlots(config(10_000));
    const now = 1_700_000_000_000;
    // A few new checks: within the first 3 s.
    for (const slot of slots.slice(0, 20)) {
      expect(catchUpAt(now, slot, 20) - now).toBeLessThan(3_000);
      expect(catchUpAt(now, slot, 20)).toBeGreaterThanOrEqual(now);
    }
    // 10,000 at once: over 50 s, ~200 a second, in the same order as their offsets.
    const firsts = slots.map((slot) => catchUpAt(now, slot, 10_000) - now);
    expect(Math.max(...firsts)).toBeLessThan(50_000);
    const perSecond = new Array<number>(50).fill(0);
    for (const ms of firsts) perSecond[Math.floor(ms / 1000)]!++;
    for (const n of perSecond) expect(n).toBeLessThan(270);
    // After a catch-up run the slot returns to its offset, at least half a period on.
    for (const slot of slots.slice(0, 50)) {
      const next = followingDueAt(catchUpAt(now, slot, 10_000), slot);
      expect((next - slot.offsetMs) % slot.periodMs).toBe(0);
      expect(next - catchUpAt(now, slot, 10_000)).toBeGreaterThanOrEqual(slot.periodMs / 2);
      // On its offset already, the next run is one period on.
      const onGrid = nextDueAt(now, slot.periodMs, slot.offsetMs);
      expect(followingDueAt(onGrid, slot)).toBe(onGrid + slot.periodMs);
    }
  });
});

describe('the owner of a slot among instances', () => {
  const keys = Array.from({ length: 10_000 }, (_, i) => slotKey(TEST_ACCOUNT, `c${i}`, 'far'));
  const shares = (instances: string[]) => {
    const count = new Map(instances.map((id) => [id, 0]));
    for (const key of keys) count.set(ownerOf(key, instances)!, count.get(ownerOf(key, instances)!)! + 1);
    return [...count.values()];
  };

  it('gives each of two or three instances an even share of 10,000 slots', () => {
    for (const n of shares(['instance-a', 'instance-b'])) expect(Math.abs(n - 5_000)).toBeLessThan(250);
    for (const n of shares(['x1', 'x2', 'x3'])) expect(Math.abs(n - 3_333)).toBeLessThan(200);
    expect(ownerOf(keys[0]!, [])).toBeUndefined();
    expect(ownerOf(keys[0]!, ['alone'])).toBe('alone');
  });

  it('moves only the slots of an instance that goes, and the same ids give the same owner', () => {
    const three = ['x1', 'x2', 'x3'];
    const two = ['x1', 'x3'];
    for (const key of keys) {
      const before = ownerOf(key, three);
      expect(ownerOf(key, [...three].reverse())).toBe(before);
      if (before !== 'x2') expect(ownerOf(key, two)).toBe(before);
    }
  });
});
