// The local runs alone (src/server/schedule/local-runs.ts), on a clock the test moves:
// a bounded number at once, each result to the sink given at start under its run's id,
// a run that could not start within its period skipped and counted, stop() aborting
// what runs and storing none of it, an offer tried again while storage fails, and a
// slot's turn: offered held, run, or skipped and counted.
import { afterEach, describe, expect, it } from 'vitest';
import { createLocalRuns, jobOf, type LocalRuns } from '../../../src/server/schedule/local-runs.js';
import { planSlots } from '../../../src/server/schedule/plan.js';
import { createRunAccounting } from '../../../src/server/schedule/run-accounting.js';
import type { SlotState } from '../../../src/server/schedule/slots.js';
import type { SchedulerOptions } from '../../../src/server/schedule/types.js';
import type { RunCheck, RunResult } from '../../../src/server/runners/types.js';
import { SKIP_REASONS } from '../../../src/server/storage/run-queue.js';
import type { ClaimedRun, RunKey } from '../../../src/server/storage/types.js';
import { createFakeClock, type FakeClock } from '../../helpers/fake-clock.js';
import { accountConfig, TEST_ACCOUNT } from '../../helpers/configs.js';
import { sampleResult } from '../../helpers/samples.js';

const ACCOUNT = TEST_ACCOUNT;

const config = accountConfig({
  checks: ['c1', 'c2', 'c3'].map((id) => ({
    id,
    target: 'http://127.0.0.1:9/health',
    frequency: '5s',
    timeoutMs: 2_000,
  })),
});

/** A run the test ends: `finish()` resolves it, or stop()'s abort does. */
interface HeldRun {
  checkId: string;
  signal: AbortSignal;
  finish(): void;
}

interface Rig {
  clock: FakeClock;
  local: LocalRuns;
  accounting: ReturnType<typeof createRunAccounting>;
  runs: HeldRun[];
  completed: Array<{ run: ClaimedRun; result: RunResult }>;
  skipping: string[];
  /** Each slot's state, by check id. */
  states: Map<string, SlotState>;
}

const unused = () => Promise.reject(new Error('not used by the local runs'));

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.local.stop();
  rig = undefined;
});

function start(
  opts: {
    maxConcurrentRuns?: number;
    offerRun?: SchedulerOptions['queue']['offerRun'];
    /** Slots a reload removed. */
    removed?: Set<string>;
  } = {},
) {
  const clock = createFakeClock();
  const accounting = createRunAccounting();
  const runs: HeldRun[] = [];
  const run: RunCheck = (_account, check, location, ctx) =>
    new Promise<RunResult>((resolve) => {
      const finish = () => resolve(sampleResult(`made-by-${check.id}`, { checkId: check.id, location }));
      ctx.signal.addEventListener('abort', finish, { once: true });
      runs.push({ checkId: check.id, signal: ctx.signal, finish });
    });
  const local = createLocalRuns({
    queue: {
      offerRun: opts.offerRun ?? unused,
      claimRuns: unused,
      instances: unused,
      withdrawRuns: unused,
      requestRun: unused,
      skipStaleRuns: unused,
    },
    run,
    ctx: { maxStoredBodyBytes: 1024, now: clock.now },
    clock,
    accounting,
    maxConcurrentRuns: () => opts.maxConcurrentRuns ?? 2,
    scheduled: (key) => !opts.removed?.has(key),
  });
  const states = new Map(
    planSlots(config).map((slot) => [slot.check.id, { slot, nextAt: 0, dueAt: 0, pending: false }]),
  );
  const r: Rig = { clock, local, accounting, runs, completed: [], skipping: [], states };
  local.start({
    complete: (held, result) => {
      r.completed.push({ run: held, result });
      return Promise.resolve(true);
    },
    onSkipping: (_accountId, checkId) => void r.skipping.push(checkId),
  });
  return (rig = r);
}

const claimed = (checkId: string, dueAt: number): ClaimedRun => ({
  id: `run-${checkId}`,
  accountId: ACCOUNT,
  checkId,
  locationId: 'near',
  dueAt,
  token: 'instance-test',
  leaseUntil: dueAt + 60_000,
  attempt: 1,
  triggeredBy: 'schedule',
});

/** The slot's scheduled run as a job (its slot pending, as its turn leaves it), not started late after `staleAt`. */
function job(r: Rig, checkId: string, staleAt?: number) {
  const state = r.states.get(checkId)!;
  state.pending = true;
  return jobOf(state, claimed(checkId, r.clock.now()), staleAt);
}

const keyOf = (checkId: string, dueAt: number): RunKey => ({
  accountId: ACCOUNT,
  checkId,
  locationId: 'near',
  dueAt,
});

describe('the local runs', () => {
  it('run a bounded number at once, the next starting as one ends, each result stored under its run', async () => {
    const r = start({ maxConcurrentRuns: 2 });
    for (const id of ['c1', 'c2', 'c3']) r.local.enqueue(job(r, id));
    await r.clock.settle();
    expect(r.runs.map((x) => x.checkId)).toEqual(['c1', 'c2']);
    expect(r.local.stats()).toEqual({ queued: 1, running: 2 });
    r.runs[0]!.finish();
    await r.clock.settle();
    expect(r.runs.map((x) => x.checkId)).toEqual(['c1', 'c2', 'c3']);
    expect(r.completed.map((c) => [c.run.id, c.result.id])).toEqual([['run-c1', 'run-c1']]);
    expect(r.states.get('c1')!.pending).toBe(false);
    expect(r.states.get('c2')!.pending).toBe(true);
    expect(r.accounting.totals()).toEqual({ due: 3, skipped: 0, stored: 1 });
  });

  it('skip a scheduled run that could not start by its stale instant, and mark its status once', async () => {
    const r = start({ maxConcurrentRuns: 1 });
    r.local.enqueue(job(r, 'c1'));
    r.local.enqueue(job(r, 'c2', r.clock.now() + 1_000));
    r.local.enqueue(job(r, 'c2', r.clock.now() + 1_000));
    await r.clock.advance(1_000);
    r.runs[0]!.finish();
    await r.clock.settle();
    expect(r.runs.map((x) => x.checkId)).toEqual(['c1']);
    expect(r.accounting.totals()).toEqual({ due: 3, skipped: 2, stored: 1 });
    expect(r.accounting.lastReason(ACCOUNT, 'c2')).toBe(SKIP_REASONS.stale);
    expect(r.skipping).toEqual(['c2']);
    expect(r.states.get('c2')!.pending).toBe(false);
  });

  it('a run that starts just before its stale instant runs', async () => {
    const r = start();
    r.local.enqueue(job(r, 'c1', r.clock.now() + 1));
    await r.clock.settle();
    expect(r.runs.map((x) => x.checkId)).toEqual(['c1']);
  });

  it('stop() aborts the runs in flight, stores none of them, and drops what comes after', async () => {
    const r = start({ maxConcurrentRuns: 1 });
    r.local.enqueue(job(r, 'c1'));
    r.local.enqueue(job(r, 'c2'));
    await r.clock.settle();
    await r.local.stop();
    expect(r.runs.map((x) => [x.checkId, x.signal.aborted])).toEqual([['c1', true]]);
    expect(r.completed).toEqual([]);
    expect(r.local.stats()).toEqual({ queued: 0, running: 0 });
    r.local.enqueue(job(r, 'c3'));
    await r.clock.settle();
    expect(r.runs).toHaveLength(1);
    expect(r.states.get('c3')!.pending).toBe(false);
    expect(r.local.stopped()).toBe(true);
  });

  it('an offer is tried again after 1 s and 3 s while storage fails, with the same key', async () => {
    const tries: Array<{ key: RunKey; at: number }> = [];
    let failures = 2;
    const r = start({
      offerRun: (key) => {
        tries.push({ key, at: rig!.clock.now() });
        return failures-- > 0
          ? Promise.reject(new Error('database down'))
          : Promise.resolve(claimed('c1', 0));
      },
    });
    const key = { accountId: ACCOUNT, checkId: 'c1', locationId: 'near', dueAt: r.clock.now() };
    const offered = r.local.offer(key);
    await r.clock.advance(4_000);
    await expect(offered).resolves.toMatchObject({ id: 'run-c1' });
    const t0 = tries[0]!.at;
    expect(tries).toEqual([
      { key, at: t0 },
      { key, at: t0 + 1_000 },
      { key, at: t0 + 4_000 },
    ]);
  });

  it('an offer failing three times fails, for the slot to count its turn skipped', async () => {
    const r = start({ offerRun: () => Promise.reject(new Error('database down')) });
    const offered = r.local.offer({ accountId: ACCOUNT, checkId: 'c1', locationId: 'near', dueAt: 0 });
    const failed = expect(offered).rejects.toThrow('database down');
    await r.clock.advance(4_000);
    await failed;
  });

  it("a slot's turn is offered held by this instance, run, and a turn while it runs is skipped and counted", async () => {
    const offers: Array<{ key: RunKey; holder: unknown; staleAt: number | undefined }> = [];
    const r = start({
      offerRun: (key, _at, holder, staleAt) => {
        offers.push({ key, holder, staleAt });
        return Promise.resolve(claimed(key.checkId, key.dueAt));
      },
    });
    const state = r.states.get('c1')!;
    const at = r.clock.now();
    r.local.turn(state, keyOf('c1', at), at + 5_000);
    await r.clock.settle();
    expect(offers).toEqual([
      { key: keyOf('c1', at), holder: { token: r.local.token, leaseMs: 60_000 }, staleAt: at + 5_000 },
    ]);
    expect(r.runs.map((x) => x.checkId)).toEqual(['c1']);
    r.local.turn(state, keyOf('c1', at + 5_000), at + 10_000);
    expect(offers).toHaveLength(1);
    expect(r.accounting.totals()).toEqual({ due: 2, skipped: 1, stored: 0 });
    expect(r.skipping).toEqual(['c1']);
    r.runs[0]!.finish();
    await r.clock.settle();
    expect(r.completed.map((c) => c.run.id)).toEqual(['run-c1']);
    expect(state.pending).toBe(false);
  });

  it('a turn another instance offered first runs nothing here and counts nothing', async () => {
    const r = start({ offerRun: () => Promise.resolve(null) });
    const state = r.states.get('c1')!;
    r.local.turn(state, keyOf('c1', r.clock.now()), r.clock.now() + 5_000);
    await r.clock.settle();
    expect(r.runs).toEqual([]);
    expect(state.pending).toBe(false);
    expect(r.accounting.totals()).toEqual({ due: 0, skipped: 0, stored: 0 });
  });

  it('a turn whose slot a reload removed while its offer was out starts no run', async () => {
    const removed = new Set<string>();
    const r = start({ removed, offerRun: (key) => Promise.resolve(claimed(key.checkId, key.dueAt)) });
    const state = r.states.get('c1')!;
    r.local.turn(state, keyOf('c1', r.clock.now()), r.clock.now() + 5_000);
    removed.add(state.slot.key);
    await r.clock.settle();
    expect(r.runs).toEqual([]);
    expect(state.pending).toBe(false);
  });

  it('a turn that cannot be offered is counted due and skipped, and the next turn is offered again', async () => {
    let tries = 0;
    const r = start({
      offerRun: () => (tries++, Promise.reject(new Error('database down'))),
    });
    const state = r.states.get('c1')!;
    r.local.turn(state, keyOf('c1', r.clock.now()), r.clock.now() + 5_000);
    await r.clock.advance(4_000);
    expect(r.accounting.totals()).toEqual({ due: 1, skipped: 1, stored: 0 });
    expect(r.skipping).toEqual(['c1']);
    expect(state.pending).toBe(false);
    r.local.turn(state, keyOf('c1', r.clock.now()), r.clock.now() + 5_000);
    await r.clock.advance(4_000);
    expect(tries).toBe(6);
  });
});
