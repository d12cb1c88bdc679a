// Run now (issue 32) over real HTTP against the real service: a local location run
// by the service, a remote one by a real `checkwall runner` (the built program:
// `npm run build` first), and the run queue's own table as the judge of what ran.
// The local runs are on the fake clock (test/helpers/fake-clock.ts); a spawned runner
// long-polls on real time, so the service it talks to is on real time too.
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { CheckRunListSchema, CheckRunSchema, type CheckRun } from '../../../src/api/schemas/actions.js';
import { ApiErrorBodySchema, CheckStatusListSchema } from '../../../src/api/schemas/index.js';
import { advanceUntil, createFakeClock, type FakeClock } from '../../helpers/fake-clock.js';
import { startFixture, type Fixture } from '../../helpers/fixture.js';
import { killRunners, startRunner, storedResults } from '../../helpers/runner.js';
import { accountConfig, FAR, NEAR } from '../../helpers/configs.js';
import { startTestService, TEST_ACCOUNT, TEST_KEY, type TestService } from '../../helpers/service.js';
import { tempDb } from '../../helpers/storages.js';

let service: TestService | undefined;
let target: Fixture | undefined;

afterEach(async () => {
  killRunners();
  await service?.close();
  await target?.close();
  service = undefined;
  target = undefined;
});

const headers = { authorization: `Bearer ${TEST_KEY}`, 'x-service-account': TEST_ACCOUNT };

const ask = (url: string, body: unknown) =>
  fetch(`${url}/v1/check-runs`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

async function runs(url: string, ids: string[]): Promise<CheckRun[]> {
  const res = await fetch(`${url}/v1/check-runs?ids=${ids.join(',')}`, { headers });
  expect(res.status).toBe(200);
  return CheckRunListSchema.parse(await res.json()).data;
}

/** A target that answers at once, or holds requests to /hang until released. */
async function startTarget() {
  const held: Array<() => void> = [];
  const fixture = await startFixture((req, res) => {
    const answer = () => res.writeHead(200).end('ok');
    if (req.url.startsWith('/hang')) held.push(answer);
    else answer();
  });
  target = fixture;
  return { fixture, release: () => held.splice(0).forEach((answer) => answer()), held: () => held.length };
}

/** Moves the clock until `done` holds, each step once every run under way is held at the target or over. */
const clockUntil = (
  clock: FakeClock,
  s: TestService,
  held: () => number,
  done: () => boolean | Promise<boolean>,
) => advanceUntil(clock, done, { idle: () => s.runStats().running === held(), withinMs: 20_000 });

/** Checks at the local location "near" and the remote "far". */
function config(url: string, checks: Array<{ id: string; frequency: string; path?: string; at?: string[] }>) {
  return accountConfig({
    locations: [NEAR, FAR],
    account: { groups: [{ id: 'core', name: 'Core' }] },
    checks: checks.map((c) => ({
      id: c.id,
      target: `${url}${c.path ?? `/${c.id}`}`,
      frequency: c.frequency,
      locations: c.at ?? ['near'],
      group: 'core',
      tags: ['t'],
      timeoutMs: 20_000,
    })),
  });
}

describe('POST /v1/check-runs', { timeout: 60_000 }, () => {
  it('runs a check now at a local location: queued, then done, stored as a result triggered by the api', async () => {
    const t = await startTarget();
    const clock = createFakeClock();
    const s = (service = await startTestService({
      config: config(t.fixture.url, [{ id: 'c1', frequency: '1h' }]),
      startScheduler: true,
      clock,
    }));
    // The first scheduled run (a new check runs at once on first sight) lands first.
    await clockUntil(clock, s, t.held, async () => (await storedResults(s, 'c1')).length > 0);
    expect(await storedResults(s, 'c1')).toHaveLength(1);

    const res = await ask(service.url, { checkIds: ['c1'] });
    expect(res.status).toBe(202);
    const [run] = CheckRunListSchema.parse(await res.json()).data;
    expect(run).toMatchObject({ checkId: 'c1', location: 'near', state: 'queued', triggeredBy: 'api' });

    await expect
      .poll(async () => (await runs(service!.url, [run!.runId]))[0]!.state, { timeout: 20_000 })
      .toBe('done');
    const [done] = await runs(service.url, [run!.runId]);
    expect(done).toMatchObject({ resultId: run!.runId, status: 'success' });
    const one = await fetch(`${service.url}/v1/check-runs/${run!.runId}`, { headers });
    expect(CheckRunSchema.parse(await one.json())).toEqual(done);

    const stored = await storedResults(service, 'c1');
    expect(stored.map((r) => r.triggeredBy).sort()).toEqual(['api', 'schedule']);
    expect(stored.find((r) => r.triggeredBy === 'api')!.id).toBe(run!.runId);
    // It does not move the schedule: the next scheduled run is still an hour from the first.
    const statuses = await fetch(`${service.url}/v1/check-statuses`, { headers });
    const c1 = CheckStatusListSchema.parse(await statuses.json()).data[0]!;
    expect(Date.parse(c1.schedule.nextRun!)).toBeGreaterThan(clock.now() + 30 * 60_000);
  });

  it('answers the pending run when asked again (no pile-up), then 429 with Retry-After past 10 asks a minute', async () => {
    const t = await startTarget();
    const clock = createFakeClock();
    const s = (service = await startTestService({
      config: config(t.fixture.url, [{ id: 'h1', frequency: '1h', path: '/hang' }]),
      startScheduler: true,
      clock,
    }));
    // The first scheduled run (a new check's, at once) is held at the target too.
    await clockUntil(clock, s, t.held, () => t.held() > 0);
    expect(t.held()).toBe(1);
    const first = CheckRunListSchema.parse(await (await ask(service.url, { checkIds: ['h1'] })).json()).data;
    await expect.poll(() => t.held(), { timeout: 20_000 }).toBe(2);
    for (let i = 2; i <= 10; i++) {
      const again = await ask(service.url, { checkIds: ['h1'], triggeredBy: 'manual' });
      expect(again.status).toBe(202);
      const [run] = CheckRunListSchema.parse(await again.json()).data;
      expect(run).toMatchObject({ runId: first[0]!.runId, state: 'running', triggeredBy: 'api' });
    }
    const refused = await ask(service.url, { checkIds: ['h1'] });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(ApiErrorBodySchema.parse(await refused.json()).message).toMatch(/h1.*10 times in the last minute/);
    // One asked run reached the target (beside the scheduled one), however often it was asked for.
    t.release();
    await expect
      .poll(async () => (await runs(service!.url, [first[0]!.runId]))[0]!.state, { timeout: 20_000 })
      .toBe('done');
    expect(t.fixture.seen.length).toBe(2);
    expect((await storedResults(service, 'h1')).map((r) => r.triggeredBy).sort()).toEqual([
      'api',
      'schedule',
    ]);
  });

  it('refuses unknown ids by name, a selection of more than 100 runs saying how to narrow it, and no selector', async () => {
    const t = await startTarget();
    const checks = Array.from({ length: 51 }, (_, i) => ({
      id: `c${i}`,
      frequency: '1h',
      at: ['near', 'far'],
    }));
    service = await startTestService({ config: config(t.fixture.url, checks) });

    const unknown = await ask(service.url, {
      checkIds: ['c1', 'nope'],
      groupIds: ['gone'],
      locations: ['mars'],
    });
    expect(unknown.status).toBe(400);
    const { message, details } = ApiErrorBodySchema.parse(await unknown.json());
    expect(message).toContain('checkIds "nope"');
    expect(message).toContain('groupIds "gone"');
    expect(message).toContain('locations "mars"');
    expect(details).toEqual([
      { path: 'checkIds[1]', message: '"nope" is not in this account' },
      { path: 'groupIds[0]', message: '"gone" is not in this account' },
      { path: 'locations[0]', message: '"mars" is not in this account' },
    ]);

    const many = await ask(service.url, { tags: ['t'] });
    expect(many.status).toBe(400);
    expect(ApiErrorBodySchema.parse(await many.json()).message).toMatch(/102 runs.*more than 100.*locations/);
    // Narrowed to one location it is 51 runs: accepted.
    const narrowed = await ask(service.url, { tags: ['t'], locations: ['near'] });
    expect(narrowed.status).toBe(202);
    expect(CheckRunListSchema.parse(await narrowed.json()).data).toHaveLength(51);

    expect((await ask(service.url, {})).status).toBe(400);
    expect((await ask(service.url, { checkIds: ['c1'], triggeredBy: 'schedule' })).status).toBe(400);
  });

  it('skips a run at a remote location with no runner connected, saying why', async () => {
    const t = await startTarget();
    service = await startTestService({
      config: config(t.fixture.url, [{ id: 'c1', frequency: '1h', at: ['far'] }]),
    });
    const res = await ask(service.url, { checkIds: ['c1'] });
    expect(res.status).toBe(202);
    const [run] = CheckRunListSchema.parse(await res.json()).data;
    expect(run).toMatchObject({ state: 'skipped', reason: 'no runner is connected for its remote location' });
  });

  it('runs a check now at a remote location through its runner, stored with its trigger', async () => {
    const t = await startTarget();
    service = await startTestService({
      config: config(t.fixture.url, [{ id: 'c1', frequency: '1h', at: ['far'] }]),
      startScheduler: true,
    });
    startRunner(service.url);
    // The first scheduled run: the runner is connected.
    await expect.poll(async () => (await storedResults(service!, 'c1')).length, { timeout: 30_000 }).toBe(1);

    const res = await ask(service.url, { groupIds: ['core'], triggeredBy: 'manual' });
    const [run] = CheckRunListSchema.parse(await res.json()).data;
    expect(run).toMatchObject({ checkId: 'c1', location: 'far', state: 'queued', triggeredBy: 'manual' });
    await expect
      .poll(async () => (await runs(service!.url, [run!.runId]))[0]!.state, { timeout: 30_000 })
      .toBe('done');
    const stored = await storedResults(service, 'c1');
    expect(stored.find((r) => r.id === run!.runId)).toMatchObject({
      triggeredBy: 'manual',
      location: { id: 'far' },
    });
  });
});

describe('no burst of stale runs', { timeout: 90_000 }, () => {
  it('a runner away for three periods runs one run when it comes back, the older ones skipped with why', async () => {
    const t = await startTarget();
    const dbPath = tempDb();
    service = await startTestService({
      config: config(t.fixture.url, [{ id: 'c1', frequency: '1s', at: ['far'] }]),
      startScheduler: true,
      dbPath,
    });
    const db = new Database(dbPath, { readonly: true });
    try {
      const first = startRunner(service.url, { id: 'r1' });
      await expect
        .poll(async () => (await storedResults(service!, 'c1')).length, { timeout: 30_000 })
        .toBeGreaterThan(0);
      first.child.kill('SIGKILL');
      await first.exited;
      const goneAt = Date.now();
      // Three periods and more of runs offered and due, none taken.
      const waiting = () =>
        (
          db
            .prepare(
              'SELECT count(*) AS n FROM runs WHERE completed_at IS NULL AND token IS NULL AND due_at > ? AND due_at <= ?',
            )
            .get(goneAt, Date.now()) as { n: number }
        ).n;
      await expect.poll(waiting, { timeout: 20_000, interval: 200 }).toBeGreaterThanOrEqual(3);
      const backAt = Date.now();
      startRunner(service.url, { id: 'r2' });
      // The runs due while it was away: the newest ran (or runs), every older one is skipped, none ran late.
      await expect
        .poll(
          () =>
            db
              .prepare(
                'SELECT count(*) AS n FROM runs WHERE due_at > ? AND due_at <= ? AND completed_at IS NULL',
              )
              .get(goneAt, backAt) as { n: number },
          { timeout: 20_000 },
        )
        .toEqual({ n: 0 });
      const away = db
        .prepare(
          'SELECT due_at AS dueAt, skipped, ok FROM runs WHERE due_at > ? AND due_at <= ? ORDER BY due_at',
        )
        .all(goneAt, backAt) as Array<{ dueAt: number; skipped: string | null; ok: number | null }>;
      expect(away.length).toBeGreaterThanOrEqual(3);
      const ran = away.filter((r) => r.skipped === null);
      expect(ran.length).toBeLessThanOrEqual(1);
      for (const r of away.filter((r) => r.skipped !== null))
        expect(r.skipped).toMatch(/newer run|within half its period/);
      // The status says why runs were skipped.
      const statuses = await fetch(`${service.url}/v1/check-statuses`, { headers });
      const c1 = CheckStatusListSchema.parse(await statuses.json()).data[0]!;
      expect(c1.statusReason).toMatch(/scheduled runs? skipped/);
    } finally {
      db.close();
    }
  });
});
