// The slots alone (src/server/schedule/slots.ts), on a clock the test moves, with no
// queue and no runner: which key each slot falls due with, and when, for a slot on its
// grid, an overdue one, a resumed one and a remote one; what a reload removes; and that
// nothing falls due before start or after stop.
import { describe, expect, it } from 'vitest';
import { checkKey } from '../../../src/domain/keys.js';
import { catchUpAt, nextDueAt, slotOffsetMs, slotPhase } from '../../../src/server/schedule/plan.js';
import { remoteAhead } from '../../../src/server/schedule/remote-offers.js';
import { createSlots } from '../../../src/server/schedule/slots.js';
import type { RunKey } from '../../../src/server/storage/types.js';
import { accountConfig, FAR, NEAR, TEST_ACCOUNT } from '../../helpers/configs.js';
import { createFakeClock } from '../../helpers/fake-clock.js';

const ACCOUNT = TEST_ACCOUNT;
const PERIOD_MS = 5_000;

function config(checks: Array<{ id: string; locations: string[] }>) {
  return accountConfig({
    locations: [NEAR, { id: 'also', name: 'Also', region: 'here' }, FAR],
    checks: checks.map(({ id, locations }) => ({
      id,
      target: 'http://127.0.0.1:9/health',
      frequency: '5s',
      locations,
      timeoutMs: 2_000,
    })),
  });
}

/** Slots whose last runs `lastRunAt` gives (by default a second before it is read), each due turn noted with the instant it fired. */
function rig(lastRunAt: (now: number) => Promise<number | null> = (now) => Promise.resolve(now - 1_000)) {
  const clock = createFakeClock();
  const due: Array<{ key: RunKey; at: number }> = [];
  const slots = createSlots({
    clock,
    lastRunAt: () => lastRunAt(clock.now()),
    onDue: (_state, key) => void due.push({ key, at: clock.now() }),
  });
  return { clock, slots, due, start: clock.now() };
}

const offset = (checkId: string, locationId: string) => slotOffsetMs(ACCOUNT, checkId, locationId, PERIOD_MS);
const keyOf = (checkId: string, locationId: string, dueAt: number): RunKey => ({
  accountId: ACCOUNT,
  checkId,
  locationId,
  dueAt,
});

describe('the slots', () => {
  it('a slot run within its period falls due on its grid, keyed at that instant, once a period', async () => {
    const r = rig();
    r.slots.place(config([{ id: 'c1', locations: ['near'] }]));
    r.slots.start();
    const first = nextDueAt(r.start, PERIOD_MS, offset('c1', 'near'));
    await r.clock.advance(first - r.start + 2 * PERIOD_MS);
    expect(r.due).toEqual(
      [0, 1, 2].map((i) => ({ key: keyOf('c1', 'near', first + i * PERIOD_MS), at: first + i * PERIOD_MS })),
    );
    expect(r.slots.nextRun(ACCOUNT, 'c1')?.getTime()).toBe(first + 3 * PERIOD_MS);
  });

  it('an overdue slot runs soon, keyed at the grid instant it stands for, then joins its grid', async () => {
    const r = rig(() => Promise.resolve(null));
    r.slots.place(config([{ id: 'c1', locations: ['near'] }]));
    r.slots.start();
    await r.clock.settle();
    const slot = {
      periodMs: PERIOD_MS,
      phase: slotPhase(ACCOUNT, 'c1', 'near'),
      offsetMs: offset('c1', 'near'),
    };
    const soon = catchUpAt(r.start, slot, 1);
    const onGrid = nextDueAt(r.start, PERIOD_MS, slot.offsetMs);
    expect(r.slots.nextRun(ACCOUNT, 'c1')?.getTime()).toBe(soon);
    await r.clock.advance(soon - r.start);
    expect(r.due).toEqual([{ key: keyOf('c1', 'near', onGrid - PERIOD_MS), at: soon }]);
    const next = r.slots.nextRun(ACCOUNT, 'c1')!.getTime();
    expect(next - soon).toBeGreaterThanOrEqual(PERIOD_MS / 2);
    expect((next - slot.offsetMs) % PERIOD_MS).toBe(0);
  });

  it('a check resumed by a reload runs soon though it ran this period, keyed at its own instant', async () => {
    const r = rig();
    r.slots.place(config([{ id: 'c1', locations: ['near'] }]));
    r.slots.start();
    await r.clock.settle();
    r.slots.place(config([{ id: 'c2', locations: ['near'] }]));
    r.slots.place(
      config([
        { id: 'c2', locations: ['near'] },
        { id: 'c1', locations: ['near'] },
      ]),
      new Set([checkKey(ACCOUNT, 'c1')]),
    );
    await r.clock.settle();
    const soon = catchUpAt(r.start, { periodMs: PERIOD_MS, phase: slotPhase(ACCOUNT, 'c1', 'near') }, 1);
    await r.clock.advance(soon - r.start);
    expect(r.due.filter((d) => d.key.checkId === 'c1')).toEqual([
      { key: keyOf('c1', 'near', soon), at: soon },
    ]);
  });

  it('a remote slot fires ahead of its due instant, keyed at the due instant (remote-offers.ts offers it)', async () => {
    const r = rig();
    r.slots.place(config([{ id: 'c1', locations: ['far'] }]));
    const dueAt = nextDueAt(r.start + PERIOD_MS, PERIOD_MS, offset('c1', 'far'));
    const ahead = remoteAhead({ periodMs: PERIOD_MS });
    // Started a little before the instant it is offered at, so that instant is on the clock.
    await r.clock.advance(dueAt - ahead - 100 - r.start);
    r.slots.start();
    await r.clock.advance(99);
    expect(r.due).toEqual([]);
    await r.clock.advance(1);
    expect(r.due).toEqual([{ key: keyOf('c1', 'far', dueAt), at: dueAt - ahead }]);
  });

  it('a reload gives the places it removed, whose timers never fire; the others keep theirs', async () => {
    const r = rig();
    r.slots.place(config([{ id: 'c1', locations: ['near', 'also'] }]));
    r.slots.start();
    await r.clock.settle();
    const before = r.slots.nextRun(ACCOUNT, 'c1')?.getTime();
    const removed = r.slots.place(config([{ id: 'c1', locations: ['also'] }]));
    expect(removed).toEqual([{ accountId: ACCOUNT, checkId: 'c1', locationId: 'near' }]);
    const also = nextDueAt(r.start, PERIOD_MS, offset('c1', 'also'));
    expect(before).toBe(Math.min(also, nextDueAt(r.start, PERIOD_MS, offset('c1', 'near'))));
    expect(r.slots.nextRun(ACCOUNT, 'c1')?.getTime()).toBe(also);
    await r.clock.advance(2 * PERIOD_MS);
    expect(new Set(r.due.map((d) => d.key.locationId))).toEqual(new Set(['also']));
  });

  it('a slot removed while its last run was being read is not armed when the read lands', async () => {
    let landed: (at: number) => void = () => undefined;
    const r = rig(() => new Promise((resolve) => (landed = resolve)));
    r.slots.place(config([{ id: 'c1', locations: ['near'] }]));
    r.slots.start();
    r.slots.place(config([]));
    landed(r.start - 1_000);
    await r.clock.settle();
    expect(r.clock.pending()).toBe(0);
    await r.clock.advance(2 * PERIOD_MS);
    expect(r.due).toEqual([]);
  });

  it('slots due at one instant share one timer and fall due in one callback', async () => {
    const clock = createFakeClock();
    // Which timer callback each due turn came from: one per instant, not one per slot.
    let callbacks = 0;
    const counted = {
      ...clock,
      setTimeout: (fn: () => void, ms: number) => clock.setTimeout(() => (callbacks++, fn()), ms),
    };
    const due: Array<{ at: number; callback: number }> = [];
    const slots = createSlots({
      clock: counted,
      lastRunAt: () => Promise.resolve(clock.now() - 1_000),
      onDue: () => void due.push({ at: clock.now(), callback: callbacks }),
    });
    // 60 slots on a 5 s period's 20 quarter-second instants: many share one.
    slots.place(config(Array.from({ length: 60 }, (_, i) => ({ id: `c${i}`, locations: ['near'] }))));
    slots.start();
    await clock.settle();
    const instants = new Set(
      Array.from({ length: 60 }, (_, i) => nextDueAt(clock.now(), PERIOD_MS, offset(`c${i}`, 'near'))),
    );
    expect(instants.size).toBeLessThan(60);
    expect(clock.pending()).toBe(instants.size);
    await clock.advance(PERIOD_MS - 1); // one period: each slot once
    expect(due).toHaveLength(60);
    const byInstant = new Map<number, Set<number>>();
    for (const d of due) byInstant.set(d.at, (byInstant.get(d.at) ?? new Set()).add(d.callback));
    expect([...byInstant.keys()].sort()).toEqual([...instants].sort());
    for (const callbacksOfInstant of byInstant.values()) expect(callbacksOfInstant.size).toBe(1);
    expect(callbacks).toBe(instants.size);
  });

  it("a slot a reload removes during an earlier slot's turn of the same instant does not fall due", async () => {
    // Two checks whose slots share an instant.
    const ids = Array.from({ length: 40 }, (_, i) => `c${i}`);
    const first = ids[0]!;
    const second = ids.find((id) => id !== first && offset(id, 'near') === offset(first, 'near'))!;
    const clock = createFakeClock();
    const due: string[] = [];
    const slots = createSlots({
      clock,
      lastRunAt: () => Promise.resolve(clock.now() - 1_000),
      onDue: (_state, key) => {
        due.push(key.checkId);
        // The first of the instant reloads the config without the other (as a reload could).
        if (due.length === 1) slots.place(config([{ id: key.checkId, locations: ['near'] }]));
      },
    });
    slots.place(config([first, second].map((id) => ({ id, locations: ['near'] }))));
    slots.start();
    await clock.settle();
    await clock.advance(PERIOD_MS - 1);
    expect(due).toHaveLength(1);
    expect([first, second]).toContain(due[0]);
  });

  it('nothing is due before start, nor after stop', async () => {
    const r = rig();
    r.slots.place(config([{ id: 'c1', locations: ['near'] }]));
    expect(r.slots.nextRun(ACCOUNT, 'c1')).toBeNull();
    await r.clock.advance(2 * PERIOD_MS);
    expect(r.due).toEqual([]);
    r.slots.start();
    await r.clock.advance(PERIOD_MS - 1);
    expect(r.due).toHaveLength(1);
    r.slots.stop();
    await r.clock.advance(2 * PERIOD_MS);
    expect(r.due).toHaveLength(1);
    expect(r.clock.pending()).toBe(0);
  });
});
