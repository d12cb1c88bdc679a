// The scheduler inside the real service, against a real loopback target that
// notes every request it gets: which check, from which location, when, and
// how many were in flight at once. Time is the fake clock's
// (test/helpers/fake-clock.ts): the target notes a request at the clock's time
// and holds its answer on the clock, and the test moves the clock a step at a
// time once the service is at rest (no offer out, every run under way held at
// the target).
import { afterEach, describe, expect, it } from 'vitest';
import { CheckStatusListSchema } from '../../../src/api/schemas/index.js';
import { slotOffsetMs } from '../../../src/server/schedule/plan.js';
import { advanceBy, advanceUntil, createFakeClock, type FakeClock } from '../../helpers/fake-clock.js';
import { startFixture, type Fixture } from '../../helpers/fixture.js';
import { startTestService, TEST_ACCOUNT, TEST_KEY, type TestService } from '../../helpers/service.js';
import { accountConfig } from '../../helpers/configs.js';

interface Hit {
  check: string;
  location: string;
  at: number;
}

interface Target {
  fixture: Fixture;
  hits: Hit[];
  /** Most requests in flight at once, overall and per check+location. */
  peak: { all: number; perRun: Map<string, number> };
  /** Requests in flight now. */
  inFlight(): number;
}

/** A target that answers /c/{check}?ms=N after N ms of the clock. */
async function startTarget(clock: FakeClock): Promise<Target> {
  const hits: Hit[] = [];
  const peak = { all: 0, perRun: new Map<string, number>() };
  let all = 0;
  const running = new Map<string, number>();
  const fixture = await startFixture((req, res) => {
    const url = new URL(req.url, 'http://x');
    const check = url.pathname.split('/')[2] ?? '';
    const location = String(req.headers['x-checkwall-location']);
    const key = `${check}@${location}`;
    hits.push({ check, location, at: clock.now() });
    all++;
    running.set(key, (running.get(key) ?? 0) + 1);
    peak.all = Math.max(peak.all, all);
    peak.perRun.set(key, Math.max(peak.perRun.get(key) ?? 0, running.get(key)!));
    const answer = () => {
      all--;
      running.set(key, running.get(key)! - 1);
      res.writeHead(200).end('ok');
    };
    const ms = Number(url.searchParams.get('ms') ?? 0);
    if (ms > 0) clock.setTimeout(answer, ms);
    else answer();
  });
  return { fixture, hits, peak, inFlight: () => all };
}

const LOCATIONS = [
  { id: 'eu-west', name: 'Frankfurt', region: 'eu-central-1' },
  { id: 'us-east', name: 'Virginia', region: 'us-east-1' },
];

function config(
  target: Target,
  checks: Array<{ id: string; frequency: string; locations: string[]; ms?: number; enabled?: boolean }>,
  maxConcurrentRuns = 16,
) {
  return accountConfig({
    service: { maxConcurrentRuns },
    locations: LOCATIONS,
    checks: checks.map((c) => ({
      id: c.id,
      target: `${target.fixture.url}/c/${c.id}?ms=${c.ms ?? 0}`,
      frequency: c.frequency,
      locations: c.locations,
      timeoutMs: 10_000,
      enabled: c.enabled ?? true,
    })),
  });
}

let svc: TestService | undefined;
let target: Target | undefined;
afterEach(async () => {
  await svc?.close();
  await target?.fixture.close();
  svc = target = undefined;
});

interface Rig {
  clock: FakeClock;
  t: Target;
  s: TestService;
  /** Moves the clock until `done` holds, the service at rest after each step. */
  until(done: () => boolean | Promise<boolean>, withinMs?: number): Promise<void>;
  /** Moves the clock `ms` on, the service at rest after each step. */
  by(ms: number): Promise<void>;
}

/** The service on the fake clock with its scheduler, its offers counted so the test knows when it is at rest. */
async function startScheduled(
  checks: Parameters<typeof config>[1],
  maxConcurrentRuns?: number,
): Promise<Rig> {
  const clock = createFakeClock();
  const t = (target = await startTarget(clock));
  const s = (svc = await startTestService({
    startScheduler: true,
    config: config(t, checks, maxConcurrentRuns),
    clock,
  }));
  let offering = 0;
  const offer = s.storage.offerRun.bind(s.storage);
  s.storage.offerRun = (...args) => {
    offering++;
    return offer(...args).finally(() => offering--);
  };
  const idle = () => offering === 0 && s.runStats().running === t.inFlight();
  return {
    clock,
    t,
    s,
    until: (done, withinMs) => advanceUntil(clock, done, { idle, ...(withinMs ? { withinMs } : {}) }),
    by: (ms) => advanceBy(clock, ms, { idle }),
  };
}

const of = (hits: Hit[], check: string, location?: string) =>
  hits.filter((h) => h.check === check && (!location || h.location === location)).map((h) => h.at);

describe('scheduler', () => {
  it('runs each enabled check from each of its locations at its frequency, each at its own offset', async () => {
    const { t, until } = await startScheduled([
      { id: 'a', frequency: '1s', locations: ['eu-west', 'us-east'] },
      { id: 'b', frequency: '2s', locations: ['us-east'] },
      { id: 'c', frequency: '1s', locations: ['eu-west'] },
      { id: 'off', frequency: '1s', locations: ['eu-west'], enabled: false },
    ]);
    // Enough for every check to have run a few times.
    await until(() => of(t.hits, 'b').length >= 3, 15_000);
    await until(() => of(t.hits, 'c').length >= 4, 5_000);

    expect(of(t.hits, 'off')).toEqual([]);
    expect(new Set(t.hits.filter((h) => h.check === 'a').map((h) => h.location))).toEqual(
      new Set(['eu-west', 'us-east']),
    );
    expect(new Set(t.hits.filter((h) => h.check === 'b').map((h) => h.location))).toEqual(
      new Set(['us-east']),
    );
    // Every run starts at its check × location's own offset in its period (schedule-plan.ts),
    // give or take the timer and the trip to the target (a timer may fire a few ms early).
    // The first run of each may wait for its worker thread to start.
    const periods: Record<string, number> = { a: 1000, b: 2000, c: 1000 };
    const seen = new Set<string>();
    for (const hit of t.hits) {
      if (!seen.has(`${hit.check}@${hit.location}`)) {
        seen.add(`${hit.check}@${hit.location}`);
        continue;
      }
      const period = periods[hit.check]!;
      const late =
        (((hit.at - slotOffsetMs(TEST_ACCOUNT, hit.check, hit.location, period)) % period) + period) % period;
      expect(late < 400 || late > period - 20, `${hit.check}@${hit.location} ${late} ms off`).toBe(true);
    }
    // Each check+location keeps its own frequency.
    for (const [check, location, everyMs] of [
      ['a', 'eu-west', 1000],
      ['a', 'us-east', 1000],
      ['b', 'us-east', 2000],
      ['c', 'eu-west', 1000],
    ] as const) {
      const at = of(t.hits, check, location).slice(1); // the first may wait for its worker
      const gaps = at.slice(1).map((x, i) => x - at[i]!);
      expect(Math.min(...gaps)).toBeGreaterThanOrEqual(everyMs * 0.9);
      expect(gaps.reduce((x, y) => x + y, 0) / gaps.length).toBeLessThanOrEqual(everyMs * 1.3);
    }
  });

  it('reports a nextRun that is when the next run really starts', async () => {
    const { clock, t, s, until } = await startScheduled([
      { id: 'n', frequency: '2s', locations: ['eu-west'] },
      { id: 'off', frequency: '1s', locations: ['eu-west'], enabled: false },
    ]);
    await until(() => of(t.hits, 'n').length >= 1, 10_000);
    const res = await fetch(`${s.url}/v1/check-statuses?sortBy=name`, {
      headers: { authorization: `Bearer ${TEST_KEY}`, 'x-service-account': TEST_ACCOUNT },
    });
    const [n, off] = CheckStatusListSchema.parse(await res.json()).data;
    expect(off!.schedule).toEqual({ frequency: '1s', nextRun: null, enabled: false });
    const promised = Date.parse(n!.schedule.nextRun!);
    expect(promised).toBeGreaterThan(clock.now() - 50);
    const seen = of(t.hits, 'n').length;
    await until(() => of(t.hits, 'n').length > seen, 5_000);
    expect(Math.abs(of(t.hits, 'n')[seen]! - promised)).toBeLessThanOrEqual(250);
  });

  it('bounds the runs in flight, and never runs one check+location twice at once', async () => {
    const { t, s, until } = await startScheduled(
      [
        // Takes 2.5 s at a 1 s frequency: ticks that find it running are skipped.
        { id: 'slow', frequency: '1s', locations: ['eu-west', 'us-east'], ms: 2500 },
        ...['p1', 'p2', 'p3'].map((id) => ({ id, frequency: '1s', locations: ['eu-west'], ms: 400 })),
      ],
      2,
    );
    await until(() => of(t.hits, 'slow').length >= 4, 15_000);
    expect(t.peak.all).toBe(2);
    expect(Math.max(...t.peak.perRun.values())).toBe(1);
    // The slow check's runs hold both places most of the time; the quick ones run in the
    // gaps (which of them depends on where their offsets fall on the quarter-second grid).
    expect(['p1', 'p2', 'p3'].flatMap((id) => of(t.hits, id)).length).toBeGreaterThan(0);
    // Every due run is stored, counted as skipped, or still waiting or running: none vanish.
    const stats = s.runStats();
    expect(stats.skipped).toBeGreaterThan(0);
    expect(stats.due).toBe(stats.stored + stats.skipped + stats.queued + stats.running);
    // And the check whose turns are skipped says so in its status, with the last skip's
    // reason: a turn that found it still running (behind), or one that waited for a
    // place longer than half its period (which of them came last depends on where the
    // checks' phases put their first runs).
    const res = await fetch(`${s.url}/v1/check-statuses?sortBy=name`, {
      headers: { authorization: `Bearer ${TEST_KEY}`, 'x-service-account': TEST_ACCOUNT },
    });
    const slow = CheckStatusListSchema.parse(await res.json()).data.find((s) => s.checkId === 'slow');
    expect(slow!.statusReason).toMatch(
      /\d+ scheduled runs? skipped in the last 10 min: (the service is behind schedule|it could not start within half its period of its due time)$/,
    );
  });
});

/**
 * The service running x hourly from eu-west, its offers made through `through` (the
 * scheduler reads its queue's method at each offer).
 */
async function startOfferingThrough(
  through: (real: TestService['storage']['offerRun']) => TestService['storage']['offerRun'],
): Promise<Rig> {
  const rig = await startScheduled([{ id: 'x', frequency: '1h', locations: ['eu-west'] }]);
  rig.s.storage.offerRun = through(rig.s.storage.offerRun.bind(rig.s.storage));
  return rig;
}

describe('scheduler, when storage fails an offer', () => {
  it('offers the run again (the same key) and runs it once the database answers', async () => {
    // The first two fail, as a busy pool would.
    let failures = 0;
    const { t, s, until } = await startOfferingThrough(
      (real) =>
        (...args) =>
          failures++ < 2
            ? Promise.reject(new Error('timeout exceeded when trying to connect'))
            : real(...args),
    );
    await until(() => of(t.hits, 'x').length >= 1, 15_000);
    expect(of(t.hits, 'x')).toHaveLength(1);
    expect(failures).toBe(3);
    expect(s.runStats()).toMatchObject({ skipped: 0 });
  });
});

describe('scheduler, when a reload comes while an offer is out', () => {
  it('starts no run of a check removed meanwhile', async () => {
    // x's first offer waits for the gate.
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let out = false;
    const { t, s, until, by } = await startOfferingThrough((real) => async (...args) => {
      out = true;
      await gate;
      return real(...args);
    });
    await until(() => out, 10_000);
    await s.reload(config(t, [{ id: 'y', frequency: '1h', locations: ['us-east'] }]));
    open();
    // y (added) runs; x, whose offer was out when it went, does not.
    await until(() => of(t.hits, 'y').length >= 1, 10_000);
    expect(of(t.hits, 'y')).toHaveLength(1);
    await by(500);
    expect(of(t.hits, 'x')).toEqual([]);
  });
});

describe('scheduler, on a reload', () => {
  it('withdraws the waiting runs of the check × location pairs the new config no longer schedules', async () => {
    const t = (target = await startTarget(createFakeClock()));
    const check = (id: string, locations: string[], enabled = true) => ({
      id,
      frequency: '1h',
      locations,
      enabled,
    });
    const before = config(t, [
      check('kept', ['eu-west']),
      check('disabled', ['eu-west']),
      check('removed', ['eu-west']),
      check('narrowed', ['eu-west', 'us-east']),
      check('was-off', ['eu-west'], false),
    ]);
    const after = config(t, [
      check('kept', ['eu-west']),
      check('disabled', ['eu-west'], false),
      check('narrowed', ['us-east']),
      check('was-off', ['eu-west']),
    ]);
    svc = await startTestService({ config: before });
    const storage = svc.storage;
    const real = storage.withdrawRuns.bind(storage);
    const withdrawn: string[][] = [];
    storage.withdrawRuns = (places, now) => {
      withdrawn.push(places.map((p) => `${p.checkId}@${p.locationId}`).sort());
      return real(places, now);
    };
    await svc.reload(after);
    expect(withdrawn).toEqual([['disabled@eu-west', 'narrowed@eu-west', 'removed@eu-west']]);
    // A reload that ends nothing withdraws nothing.
    await svc.reload(after);
    expect(withdrawn).toHaveLength(1);
  });
});
