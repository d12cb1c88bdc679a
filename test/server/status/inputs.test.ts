// Statuses kept current from each result (status-inputs.ts) say what a status
// read from storage anew says: after every result, here and on another
// instance (a peer's result), and as runs leave the window. Run on every
// storage (test/helpers/storages.ts); results are random but seeded.
import { afterEach, describe, expect, it } from 'vitest';
import type { CheckResult, CheckStatus } from '../../../src/api/schemas/index.js';
import { ServiceConfigSchema } from '../../../src/server/config/schema.js';
import { CACHE_MS, createStatusEngine } from '../../../src/server/status/engine.js';
import { deriveStatus } from '../../../src/server/status/compute.js';
import { loadInputs, SLOW_REFRESH_MS } from '../../../src/server/status/inputs.js';
import { EXACT_RUNS } from '../../../src/server/status/window.js';
import type { Storage } from '../../../src/server/storage/types.js';
import { accountConfig } from '../../helpers/configs.js';
import { sampleResult } from '../../helpers/samples.js';
import { allStorages } from '../../helpers/storages.js';

const T0 = Date.parse('2026-11-23T10:00:00.000Z');
const MIN = 60_000;
const DAY = 24 * 60 * MIN;

const config = accountConfig({
  locations: [
    { id: 'eu', name: 'Frankfurt', region: 'eu-central-1' },
    { id: 'us', name: 'Virginia', region: 'us-east-1' },
  ],
  checks: [{ id: 'c1', name: 'API', target: 'http://127.0.0.1/x' }],
});
const account = config.accounts[0]!;
const check = account.checks[0]!;

/** A small seeded generator: the same runs on every storage and every run of the suite. */
function random(seed: number) {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return x / 2 ** 31;
  };
}

/** A result at `at`: mostly passing, some failing with an error (no response time), some slow. */
function result(n: number, at: number, rnd: () => number): CheckResult {
  const location = rnd() < 0.5 ? account.locations[0]! : account.locations[1]!;
  const roll = rnd();
  const ms = Math.round(20 + rnd() * 400);
  const base = sampleResult(`r${n}`, {
    checkId: check.id,
    checkName: check.name,
    startedAt: new Date(at).toISOString(),
    finishedAt: new Date(at + ms).toISOString(),
    duration: ms,
    location,
  });
  if (roll < 0.1)
    return {
      ...base,
      status: 'failed',
      response: null,
      error: { name: 'Error', message: 'refused', stack: '' },
    };
  if (roll < 0.2) return { ...base, status: 'failed' };
  return { ...base, response: { ...base.response!, responseTime: ms } };
}

const engineOn = (storage: Storage, clock: { now: number }) =>
  createStatusEngine({
    storage,
    scheduler: { nextRun: () => null, skippedReason: () => undefined },
    now: () => clock.now,
  });

/** The status read from storage anew, at the same moment. */
async function readAnew(storage: Storage, now: number): Promise<CheckStatus> {
  return deriveStatus(await loadInputs(storage, account, check, '24h', now, false), account, check, now)
    .status;
}

/**
 * What a status says, without what is read fresh at each answer (the schedule) and
 * what the engine remembers between results rather than reads (degradedSince).
 */
const figures = (s: CheckStatus, withP95 = true) => ({
  ...s,
  schedule: null,
  degradedSince: undefined,
  performance: { ...s.performance, p95ResponseTime: withP95 ? s.performance.p95ResponseTime : null },
});

describe.each(allStorages())('statuses kept from each result on $name', ({ open }) => {
  let storage: Storage | undefined;
  afterEach(() => storage?.close());

  it('match a status read anew after every result, on this instance and on another', async () => {
    const s = (storage = await open());
    const clock = { now: T0 };
    const here = engineOn(s, clock);
    const peer = engineOn(s, clock);
    const rnd = random(7);
    // Runs from the day before (the trend's previous day) and from the last hours.
    for (let i = 0; i < 20; i++)
      await s.insertResult(account.id, result(i, T0 - DAY - 3 * 60 * MIN + i * MIN, rnd));
    await here.statusOf(account, check);
    await peer.statusOf(account, check);
    for (let i = 20; i < 80; i++) {
      clock.now += 30_000;
      const r = result(i, clock.now - 1_000, rnd);
      await here.record(account, check, r, async () => (await s.insertResult(account.id, r), true));
      await peer.peerResult(account, check, r);
      // An incident opened or closed here reaches the other instance as an alert change.
      const incident = (await here.statusOf(account, check)).currentIncident?.id;
      if (incident !== (await peer.statusOf(account, check)).currentIncident?.id)
        await peer.rereadCheck(account, check);
      const anew = figures(await readAnew(s, clock.now));
      expect(figures(await here.statusOf(account, check))).toEqual(anew);
      expect(figures(await peer.statusOf(account, check))).toEqual(anew);
    }
    // Heard twice (a result read with the inputs, then notified): counted once.
    const last = result(80, clock.now, rnd);
    await s.insertResult(account.id, last);
    await peer.peerResult(account, check, last);
    await peer.peerResult(account, check, last);
    expect(figures(await peer.statusOf(account, check))).toEqual(figures(await readAnew(s, clock.now)));
  });

  it('keep a small window exact as its runs age out of it', async () => {
    const s = (storage = await open());
    const clock = { now: T0 };
    const engine = engineOn(s, clock);
    const rnd = random(11);
    await engine.statusOf(account, check);
    for (let i = 0; i < 30; i++) {
      clock.now += 10 * MIN;
      const r = result(i, clock.now, rnd);
      await engine.record(account, check, r, async () => (await s.insertResult(account.id, r), true));
    }
    // 20 hours on: the first runs are past the 24 h window, without a result since.
    clock.now += 20 * 60 * MIN;
    await engine.warm([{ account, check }], 1_000);
    const kept = await engine.statusOf(account, check);
    const anew = await readAnew(s, clock.now);
    expect(kept.availability.percentage).toBe(anew.availability.percentage);
    expect(figures(kept)).toEqual(figures(anew));
  });

  it('say until when time alone would move them: here, a run leaving the window', async () => {
    const s = (storage = await open());
    const rnd = random(3);
    // 30 runs over the last 23 h 50 min, both locations long quiet: the first run to leave the
    // 24 h window is the next change time makes.
    const runs = Array.from({ length: 30 }, (_, i) => result(i, T0 - 1_430 * MIN + i * 49 * MIN, rnd));
    await s.insertResults(account.id, runs);
    const inputs = await loadInputs(s, account, check, '24h', T0, true);
    const at = (now: number) => deriveStatus(inputs, account, check, now);
    const { status, until } = at(T0);
    expect(until).toBe(Date.parse(runs[0]!.startedAt) + DAY + 1);
    for (const now of [T0 + 1, Math.round((T0 + until) / 2), until - 1])
      expect(at(now).status).toEqual(status);
    expect(at(until).status).not.toEqual(status);
  });

  it('are looked at when due: one never read at once, one past its until at the next turn, none before', async () => {
    const s = (storage = await open());
    const clock = { now: T0 };
    const engine = engineOn(s, clock);
    const pairs = ['c1', 'c2', 'c3', 'c4', 'c5'].map((id) => ({ account, check: { ...check, id } }));
    const rnd = random(5);
    // A run each, from both locations: each turns unknown 3 minutes (3 x 1m) after it.
    for (const [i, { check: c }] of pairs.entries())
      for (const at of [0, 1])
        await s.insertResult(account.id, {
          ...result(i * 2 + at, T0 - MIN, rnd),
          id: `${c.id}-${at}`,
          checkId: c.id,
          location: account.locations[at]!,
        });
    const turn = (budgetMs = 1_000) => engine.warm(pairs, budgetMs);
    // Never read: each read once, as many a turn as the budget allows (here one), none twice.
    expect([await turn(0), await turn(0), await turn(), await turn()]).toEqual([1, 1, 3, 0]);
    // Time alone moves none of them yet: none is derived again, however long they have been kept.
    clock.now += 2 * MIN - 1;
    expect([await turn(), await turn()]).toEqual([0, 0]);
    expect((await engine.statusOf(account, pairs[0]!.check)).status).not.toBe('unknown');
    // Past their runs' 3 minutes, each is derived again at the next turn, once: unknown now.
    clock.now += 2;
    expect([await turn(), await turn()]).toEqual([5, 0]);
    for (const { check: c } of pairs)
      expect(await engine.statusOf(account, c)).toMatchObject({
        status: 'unknown',
        statusReason: 'no recent runs',
      });
    // The clock set back: every status, derived at a later time, is derived again.
    clock.now -= 10 * MIN;
    expect([await turn(), await turn()]).toEqual([5, 0]);
    expect((await engine.statusOf(account, pairs[0]!.check)).status).not.toBe('unknown');
    // A check the config no longer holds is not looked at, and is again once it is back.
    clock.now += 10 * MIN;
    engine.rederiveAll();
    expect(await engine.warm(pairs.slice(1), 1_000)).toBe(4);
    expect(await turn()).toBe(1);
  });

  it('are kept past the cache of other periods while time alone does not move them', async () => {
    const s = (storage = await open());
    const clock = { now: T0 };
    const engine = engineOn(s, clock);
    const rnd = random(7);
    for (const [i, at] of [-30_000, -20_000].entries())
      await s.insertResult(account.id, result(i, T0 + at, rnd));
    await engine.statusOf(account, check);
    // Three times as long as another period's status is kept, and not yet 3 minutes past its runs.
    clock.now += CACHE_MS * 3;
    expect(await engine.warm([{ account, check }], 1_000)).toBe(0);
    expect(figures(await engine.statusOf(account, check))).toEqual(figures(await readAnew(s, clock.now)));
  });

  it('keep counting past the runs kept one by one, and read the p95 again when due', async () => {
    const s = (storage = await open());
    const clock = { now: T0 };
    const engine = engineOn(s, clock);
    const rnd = random(13);
    const start = T0 - 2 * (EXACT_RUNS + 40) * 1_000;
    const seeded = Array.from({ length: EXACT_RUNS - 10 }, (_, i) => result(i, start + i * 1_000, rnd));
    await s.insertResults(account.id, seeded);
    await engine.statusOf(account, check);
    for (let i = EXACT_RUNS - 10; i < EXACT_RUNS + 40; i++) {
      clock.now += 1_000;
      const r = result(i, clock.now, rnd);
      await engine.record(account, check, r, async () => (await s.insertResult(account.id, r), true));
    }
    // Counts, averages and everything else exact; the p95 as of the last read.
    expect(figures(await engine.statusOf(account, check), false)).toEqual(
      figures(await readAnew(s, clock.now), false),
    );
    clock.now += SLOW_REFRESH_MS * 1.3;
    await engine.warm([{ account, check }], 1_000);
    await engine.warm([{ account, check }], 1_000);
    expect(figures(await engine.statusOf(account, check))).toEqual(figures(await readAnew(s, clock.now)));
  });
});

describe.each(allStorages())('statuses read at once on $name', ({ open }) => {
  let storage: Storage | undefined;
  afterEach(() => storage?.close());

  it('are each what the check reads alone (PostgreSQL sends the reads of many together)', async () => {
    const s = (storage = await open());
    // More checks than one batch holds (100), with runs, an incident and an alert among them.
    const many = ServiceConfigSchema.parse({
      accounts: [
        {
          ...config.accounts[0],
          checks: Array.from({ length: 130 }, (_, i) => ({ ...check, id: `c${i}`, name: `API ${i}` })),
        },
      ],
    }).accounts[0]!;
    const rnd = random(17);
    for (const [i, c] of many.checks.entries())
      await s.insertResults(
        many.id,
        Array.from({ length: i % 7 }, (_, n) => ({
          ...result(i * 10 + n, T0 - (n + 1) * 5 * MIN, rnd),
          checkId: c.id,
          id: `${c.id}-r${n}`,
        })),
      );
    const incident = { id: 'inc-1', checkId: 'c3', severity: 'critical' as const, title: 'down' };
    await s.openIncident(many.id, { ...incident, startedAt: T0 - MIN, endedAt: null });
    await s.applyAlertChange(many.id, {
      checkId: 'c5',
      at: T0 - MIN,
      notifications: [],
      openAlert: {
        id: 'alert-1',
        checkId: 'c5',
        incidentId: null,
        openedAt: T0 - MIN,
        resolvedAt: null,
        acknowledgedAt: null,
        remindersSent: 0,
        lastNotifiedAt: T0 - MIN,
      },
    });
    const read = (c: (typeof many.checks)[number]) => loadInputs(s, many, c, '24h', T0, true);
    const lasting = ({ refreshAt: _refreshAt, ...rest }: Awaited<ReturnType<typeof read>>) => rest;
    const together = await Promise.all(many.checks.map(read));
    const alone: unknown[] = [];
    for (const c of many.checks) alone.push(lasting(await read(c)));
    expect(together.map(lasting)).toEqual(alone);
    expect(together[3]!.incident?.id).toBe('inc-1');
    expect(together[5]!.alert?.id).toBe('alert-1');
    expect(together[6]!.latest?.startedAt).toBe(T0 - 5 * MIN);
  });
});
