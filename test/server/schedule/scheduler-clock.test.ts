// The scheduler alone on a clock the test moves (test/helpers/fake-clock.ts), in
// milliseconds, against a real SQLite :memory: run queue: when each slot runs,
// which turns are skipped and counted, when a remote run is offered, and what
// stop() waits for. The runs themselves are the test's: it decides when each ends.
// The queue gathers its writes for a few real milliseconds (storage/batched.ts): a
// step of the clock ends when the writes it caused have landed (`to`).
import { afterEach, describe, expect, it } from 'vitest';
import { nextDueAt, slotOffsetMs } from '../../../src/server/schedule/plan.js';
import { remoteAhead } from '../../../src/server/schedule/remote-offers.js';
import { createScheduler } from '../../../src/server/schedule/scheduler.js';
import type { RunSink, Scheduler } from '../../../src/server/schedule/types.js';
import type { RunCheck, RunContext, RunResult } from '../../../src/server/runners/types.js';
import { openSqliteStorage } from '../../../src/server/storage/sqlite/index.js';
import type { ClaimedRun, RunKey, Storage } from '../../../src/server/storage/types.js';
import { accountConfig, FAR, NEAR, TEST_ACCOUNT } from '../../helpers/configs.js';
import { createFakeClock, type FakeClock } from '../../helpers/fake-clock.js';
import { sampleResult } from '../../helpers/samples.js';

const ACCOUNT = TEST_ACCOUNT;
const PERIOD_MS = 5_000;

function config(locations: string[], more: { checks?: string[]; maxConcurrentRuns?: number } = {}) {
  return accountConfig({
    ...(more.maxConcurrentRuns ? { service: { maxConcurrentRuns: more.maxConcurrentRuns } } : {}),
    locations: [NEAR, FAR],
    checks: ['c1', ...(more.checks ?? [])].map((id) => ({
      id,
      target: 'http://127.0.0.1:9/health',
      frequency: '5s',
      locations,
      timeoutMs: 2_000,
    })),
  });
}

/** A run the test ends: `finish()` resolves it with a result, or the stop's abort does. */
interface HeldRun {
  at: number;
  ctx: RunContext;
  finish(): void;
  checkId: string;
  triggeredBy: string;
}

interface Rig {
  clock: FakeClock;
  storage: Storage;
  scheduler: Scheduler;
  runs: HeldRun[];
  offers: Array<{ key: RunKey; at: number }>;
  remoteDue: Array<{ run: ClaimedRun; at: number }>;
  stored: RunResult[];
  skipping: number;
  /** Moves the clock to `at`, then waits for the queue writes that caused (and their effects). */
  to(at: number): Promise<void>;
}

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.scheduler.stop();
  await rig?.storage.close();
  rig = undefined;
});

/** The scheduler on a fake clock, its slots last run a second before the clock's start (so on their grid). */
function schedule(locations: string[], more: Parameters<typeof config>[1] = {}): Rig {
  const clock = createFakeClock();
  const storage = openSqliteStorage(':memory:');
  const writes = new Set<Promise<unknown>>();
  const noted = <T>(write: Promise<T>): Promise<T> => {
    writes.add(write);
    void write.finally(() => writes.delete(write)).catch(() => undefined);
    return write;
  };
  const r = {
    clock,
    storage,
    runs: [],
    offers: [],
    remoteDue: [],
    stored: [],
    skipping: 0,
  } as unknown as Rig;
  r.to = async (at) => {
    await clock.advance(at - clock.now());
    while (writes.size > 0) {
      await Promise.allSettled([...writes]);
      await clock.settle();
    }
  };
  const run: RunCheck = (_account, check, location, ctx, triggeredBy) =>
    new Promise<RunResult>((resolve) => {
      const at = clock.now();
      const finish = () => resolve(sampleResult(`r${at}`, { checkId: check.id, location, triggeredBy }));
      ctx.signal.addEventListener('abort', finish, { once: true });
      r.runs.push({ at, ctx, finish, checkId: check.id, triggeredBy });
    });
  r.scheduler = createScheduler({
    config: config(locations, more),
    run,
    queue: {
      offerRun: (key, at, holder, staleAt) => {
        r.offers.push({ key, at: clock.now() });
        return noted(storage.offerRun(key, at, holder, staleAt));
      },
      claimRuns: (...args) => storage.claimRuns(...args),
      requestRun: (...args) => noted(storage.requestRun(...args)),
      skipStaleRuns: (...args) => storage.skipStaleRuns(...args),
      instances: () => storage.instances(),
      withdrawRuns: (...args) => storage.withdrawRuns(...args),
    },
    onRemoteDue: (held) => void r.remoteDue.push({ run: held, at: clock.now() }),
    ctx: { maxStoredBodyBytes: 1024, now: clock.now },
    lastRunAt: () => Promise.resolve(clock.now() - 1_000),
    clock,
  });
  const sink: RunSink = {
    complete: async (held, result) => {
      const done = await noted(storage.completeRun(held.id, held.token, held.accountId, result, undefined));
      if (done) r.stored.push(result);
      return done;
    },
    onSkipping: () => void r.skipping++,
  };
  r.scheduler.start(sink);
  return (rig = r);
}

/** The slot's due times from the clock's start on. */
function grid(clock: FakeClock, location: string, count: number): number[] {
  const offset = slotOffsetMs(ACCOUNT, 'c1', location, PERIOD_MS);
  const first = nextDueAt(clock.now(), PERIOD_MS, offset);
  return Array.from({ length: count }, (_, i) => first + i * PERIOD_MS);
}

describe('the scheduler on an injected clock', () => {
  it('runs a local slot at its stable offset every period, and stores each run', async () => {
    const r = schedule(['near']);
    const due = grid(r.clock, 'near', 3);
    for (let i = 0; i < 3; i++) {
      await r.to(due[i]!);
      expect(r.runs.map((x) => x.at)).toEqual(due.slice(0, i + 1));
      r.runs[i]!.finish();
      await r.to(due[i]! + 1);
    }
    expect(r.stored).toHaveLength(3);
    expect(r.scheduler.stats()).toMatchObject({ due: 3, skipped: 0, stored: 3, running: 0 });
    expect(r.scheduler.nextRun(ACCOUNT, 'c1')?.getTime()).toBe(due[2]! + PERIOD_MS);
  });

  it('skips and counts a turn whose previous run is still running, and marks the status once', async () => {
    const r = schedule(['near']);
    const due = grid(r.clock, 'near', 3);
    await r.to(due[0]!);
    await r.to(due[2]!);
    // The first run never ended: the next two turns found it pending.
    expect(r.runs.map((x) => x.at)).toEqual([due[0]]);
    expect(r.scheduler.stats()).toMatchObject({ due: 3, skipped: 2, stored: 0, running: 1 });
    expect(r.skipping).toBe(1);
    expect(r.scheduler.skippedReason(ACCOUNT, 'c1')).toMatch(/skipped/);
    r.runs[0]!.finish();
    await r.to(due[2]! + 1);
    await r.to(due[2]! + PERIOD_MS);
    expect(r.runs.map((x) => x.at)).toEqual([due[0], due[2]! + PERIOD_MS]);
    expect(r.scheduler.stats()).toMatchObject({ due: 4, skipped: 2, stored: 1 });
  });

  it("offers a remote location's run ahead of its due time and tells its runners when it falls due", async () => {
    const r = schedule(['far']);
    const [due] = grid(r.clock, 'far', 1);
    const ahead = remoteAhead({ periodMs: PERIOD_MS });
    await r.to(due! - ahead - 1);
    expect(r.offers).toEqual([]);
    await r.to(due! - 1);
    // Offered ahead (after the moment's offers are gathered), unheld: a runner runs it, not this instance.
    expect(r.offers).toHaveLength(1);
    expect(r.offers[0]!.at).toBeLessThan(due!);
    expect(r.offers[0]!.key).toEqual({ accountId: ACCOUNT, checkId: 'c1', locationId: 'far', dueAt: due });
    expect(r.remoteDue).toEqual([]);
    await r.to(due!);
    expect(r.remoteDue).toMatchObject([{ at: due, run: { checkId: 'c1', locationId: 'far', dueAt: due } }]);
    expect(r.runs).toEqual([]);
  });

  it('stop() aborts the runs in flight and resolves once they ended, storing none of them', async () => {
    const r = schedule(['near']);
    const [due] = grid(r.clock, 'near', 1);
    await r.to(due!);
    expect(r.runs).toHaveLength(1);
    let stopped = false;
    const stopping = r.scheduler.stop().then(() => (stopped = true));
    expect(r.runs[0]!.ctx.signal.aborted).toBe(true);
    await stopping;
    expect(stopped).toBe(true);
    expect(r.stored).toEqual([]);
    // Nothing is armed any more: time passing runs nothing.
    await r.to(due! + 10 * PERIOD_MS);
    expect(r.runs).toHaveLength(1);
  });

  it('does not start a local run that waited half a period for a free slot: it is skipped and counted, with why', async () => {
    const r = schedule(['near'], { checks: ['c2'], maxConcurrentRuns: 1 });
    const c1 = nextDueAt(r.clock.now(), PERIOD_MS, slotOffsetMs(ACCOUNT, 'c1', 'near', PERIOD_MS));
    const c2 = nextDueAt(c1, PERIOD_MS, slotOffsetMs(ACCOUNT, 'c2', 'near', PERIOD_MS));
    await r.to(c1);
    await r.to(c2);
    // c1's run holds the only slot: c2's waits, and is still waiting half a period after its due time.
    expect(r.runs.map((x) => x.checkId)).toEqual(['c1']);
    await r.to(c2 + PERIOD_MS / 2 + 1);
    const before = r.scheduler.stats().skipped;
    r.runs[0]!.finish();
    await r.to(c2 + PERIOD_MS / 2 + 2);
    expect(r.runs.map((x) => x.checkId)).toEqual(['c1']);
    expect(r.scheduler.stats().skipped).toBe(before + 1);
    expect(r.scheduler.skippedReason(ACCOUNT, 'c2')).toMatch(/could not start within half its period/);
  });

  it('runs a check asked for now at once, answers the same run while it is pending, and keeps the schedule', async () => {
    const r = schedule(['near']);
    const due = grid(r.clock, 'near', 1);
    await r.to(due[0]! - 1_000);
    const next = r.scheduler.nextRun(ACCOUNT, 'c1')?.getTime();
    const config0 = config(['near']);
    const account = config0.accounts[0]!;
    const place = { account, check: account.checks[0]!, location: account.locations[0]! };
    const asked = r.scheduler.ask(place, 'manual');
    await r.to(r.clock.now());
    const first = await asked;
    expect(first).toMatchObject({ created: true, run: { triggeredBy: 'manual' } });
    expect(r.runs).toMatchObject([{ at: due[0]! - 1_000, triggeredBy: 'manual' }]);
    const again = r.scheduler.ask(place, 'api');
    await r.to(r.clock.now());
    expect(await again).toMatchObject({ created: false, run: { id: first.run.id } });
    expect(r.runs).toHaveLength(1);
    expect(r.scheduler.nextRun(ACCOUNT, 'c1')?.getTime()).toBe(next);
    r.runs[0]!.finish();
    await r.to(r.clock.now() + 1);
    expect(r.stored).toMatchObject([{ id: first.run.id, triggeredBy: 'manual' }]);
    // Not counted as a scheduled run: due and stored count the schedule's runs only.
    expect(r.scheduler.stats()).toMatchObject({ due: 0, stored: 0 });
    // The scheduled run still comes at its due time.
    await r.to(due[0]!);
    expect(r.runs.map((x) => x.triggeredBy)).toEqual(['manual', 'schedule']);
  });
});
