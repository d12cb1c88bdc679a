// `checkwall runner` (issue 12) against the real service on 127.0.0.1:0: the
// built program as a child process, real HTTP, a real loopback target, and the
// database as the judge of "stored once" (one result per check x location x due time).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CheckStatusListSchema } from '../../src/api/schemas/index.js';
import { startFixture, type Fixture } from '../helpers/fixture.js';
import {
  killRunners,
  remoteConfig,
  resultPostsProxy,
  storedResults as results,
  RUNNER_TOKEN,
  startRunner,
  until,
} from '../helpers/runner.js';
import {
  startTestService,
  TEST_ACCOUNT,
  TEST_KEY,
  type TestService,
  type TestServiceOptions,
} from '../helpers/service.js';

let service: TestService | undefined;
let target: Fixture | undefined;

afterEach(async () => {
  killRunners();
  await service?.close();
  await target?.close();
  service = undefined;
  target = undefined;
});

/** A target that answers at once, or holds requests whose path says /hang until released (then answers all). */
async function startTarget() {
  const held: Array<() => void> = [];
  let holding = true;
  const fixture = await startFixture((req, res) => {
    const answer = () => res.writeHead(200).end('ok');
    if (holding && req.url.startsWith('/hang')) held.push(answer);
    else answer();
  });
  /** Answers every held request, `spacingMs` apart (results finishing moments apart is what a test is about). */
  const release = async (spacingMs = 0) => {
    holding = false;
    for (const answer of held.splice(0)) {
      answer();
      // The pacing is the stimulus (what the runner's gather must span), not a wait for an outcome.
      if (spacingMs > 0) await new Promise((r) => setTimeout(r, spacingMs));
    }
  };
  const heldCount = () => held.length;
  const hold = () => (holding = true);
  return { fixture, release, heldCount, hold };
}

/** Results per check x location x due time: every value must be 1. */
async function perDueTime(s: TestService, checkId: string): Promise<number[]> {
  const counts = new Map<string, number>();
  for (const r of await results(s, checkId)) {
    const run = await s.storage.findRun(r.id);
    const key = run ? `${run.checkId}/${run.locationId}/${run.dueAt}` : `not a queued run: ${r.id}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts.values()];
}

const runnerPost = (url: string, path: string, body: unknown, token = RUNNER_TOKEN) =>
  fetch(`${url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

async function farLocation(s: TestService) {
  const res = await fetch(`${s.url}/v1/check-statuses?limit=100`, {
    headers: { authorization: `Bearer ${TEST_KEY}`, 'x-service-account': TEST_ACCOUNT },
  });
  const c1 = CheckStatusListSchema.parse(await res.json()).data.find((c) => c.checkId === 'c1')!;
  return { check: c1, far: c1.locations.find((l) => l.id === 'far')! };
}

/** The target and a service over it with these remote checks; both closed after the test. */
async function start(
  checks: Parameters<typeof remoteConfig>[1],
  opts: Omit<TestServiceOptions, 'config'> = {},
) {
  const t = await startTarget();
  target = t.fixture;
  const config = remoteConfig(t.fixture.url, checks);
  service = await startTestService({ config, ...opts });
  return { t, s: service, config };
}

describe('checkwall runner', { timeout: 60_000 }, () => {
  it("runs a remote location's checks, each scheduled run stored once, and stops cleanly on SIGTERM", async () => {
    const { t, s } = await start([{ id: 'c1', frequency: '2s' }], { startScheduler: true });
    const runner = startRunner(s.url, { id: 'runner-one' });
    await runner.waitFor(/connected to .* for location far/);
    let n = 0;
    await until(
      async () => (n = (await results(s, 'c1')).length) >= 3,
      30_000,
      () => `results: ${n}`,
    );
    runner.child.kill('SIGTERM');
    expect(await runner.exited).toEqual({ code: 0, signal: null });
    // Every request came from the runner (the service runs no remote run itself).
    expect(new Set(t.fixture.seen.map((r) => r.headers['x-checkwall-location']))).toEqual(new Set(['far']));
    expect(
      (await results(s, 'c1')).every((r) => r.location.id === 'far' && r.triggeredBy === 'schedule'),
    ).toBe(true);
    expect((await perDueTime(s, 'c1')).every((n) => n === 1)).toBe(true);
    expect(
      runner
        .stdout()
        .split('\n')
        .filter((l) => /connected to/.test(l)),
    ).toHaveLength(1);
    expect(runner.stdout() + runner.stderr()).not.toContain(RUNNER_TOKEN);
  });

  it('posts results that finish within moments of each other together, and what finished as it stops', async () => {
    const hung = ['h1', 'h2', 'h3', 'h4'].map((id) => ({ id, frequency: '2s', path: `/hang/${id}` }));
    const { t, s } = await start(hung, { startScheduler: true });
    const proxy = await resultPostsProxy(s.url);
    try {
      const runner = startRunner(proxy.url, { id: 'gatherer' });
      await until(
        () => t.heldCount() === 4,
        20_000,
        () => `held: ${t.heldCount()}; runner: ${runner.stdout()} ${runner.stderr()}`,
      );
      // The runner's four slots are all held. Finishing 10 ms apart: posted as each ended,
      // the first post carried one result.
      await t.release(10);
      await until(
        async () => (await Promise.all(hung.map((c) => results(s, c.id)))).every((r) => r.length > 0),
        10_000,
        () => `posts: ${proxy.posts().join(', ')}`,
      );
      expect(proxy.posts()[0]).toBeGreaterThanOrEqual(4);

      // A stop gives the runs in flight a grace, and what finishes in it is still posted.
      await s.reload(remoteConfig(t.fixture.url, [{ id: 'h5', frequency: '2s', path: '/hang/h5' }]));
      t.hold();
      await until(
        () => t.heldCount() === 1,
        20_000,
        () => `held: ${t.heldCount()}`,
      );
      runner.child.kill('SIGTERM');
      await runner.waitFor(/stopping/);
      await t.release();
      expect(await runner.exited).toEqual({ code: 0, signal: null });
      expect(runner.stdout()).not.toMatch(/not posted/);
      expect(await results(s, 'h5')).toHaveLength(1);
    } finally {
      await proxy.close();
    }
  });

  it('gives a run whose runner was killed to another runner after the lease, and discards a late report', async () => {
    const checks = [
      { id: 'c1', frequency: '1h', path: '/hang' },
      { id: 'c2', frequency: '1h', enabled: false }, // offered by hand below
    ];
    const { t, s } = await start(checks, { startScheduler: true, runnerLeaseMs: 3_000 });
    // The test is a runner that takes c2's run (due before anything the scheduler offers) and never reports in time.
    const now = Date.now();
    await s.storage.offerRun(
      { accountId: TEST_ACCOUNT, checkId: 'c2', locationId: 'far', dueAt: now - 10_000 },
      now,
    );
    const claimed = await runnerPost(s.url, '/v1/runner/claim', {
      runnerId: 'by-hand',
      max: 1,
      waitSeconds: 0,
    });
    const [early] = (
      (await claimed.json()) as { data: { jobs: Array<{ runId: string; claimToken: string }> } }
    ).data.jobs;
    expect(early).toBeDefined();
    // Runner A takes c1, whose target holds the request: killed mid-run, it never reports.
    const a = startRunner(s.url, { id: 'runner-a' });
    await until(
      () => t.fixture.seen.some((r) => r.url === '/hang'),
      20_000,
      () => 'runner A never ran c1',
    );
    a.child.kill('SIGKILL');
    await a.exited;
    await t.release();
    const b = startRunner(s.url, { id: 'runner-b' });
    await until(
      async () => (await results(s, 'c1')).length === 1 && (await results(s, 'c2')).length === 1,
      30_000,
      () => 'B stored nothing',
    );
    const late = await runnerPost(s.url, `/v1/runner/runs/${early!.runId}/result`, {
      claimToken: early!.claimToken,
      result: (await results(s, 'c2'))[0],
    });
    expect(late.status).toBe(409);
    expect(((await late.json()) as { message: string }).message).toMatch(/drop its result/);
    for (const id of ['c1', 'c2']) {
      expect(await results(s, id)).toHaveLength(1);
      expect(await perDueTime(s, id)).toEqual([1]);
      // Given again at least once (a loaded machine may let B's own lease lapse too): still stored once.
      expect((await s.storage.findRun((await results(s, id))[0]!.id))!.attempt).toBeGreaterThanOrEqual(2);
    }
    b.child.kill('SIGTERM');
    expect((await b.exited).code).toBe(0);
  });

  it('refuses a bad token with 401, logged once for many tries, and keeps runner and account keys apart', async () => {
    const lines: string[] = [];
    const { s } = await start([{ id: 'c1', frequency: '1h' }], { log: (line) => lines.push(line) });
    const bad = 'not-the-runner-token-42';
    for (let i = 0; i < 5; i++)
      expect(
        (await runnerPost(s.url, '/v1/runner/claim', { runnerId: 'x', waitSeconds: 0 }, bad)).status,
      ).toBe(401);
    expect(lines.filter((l) => /refused a runner token/.test(l))).toHaveLength(1);
    expect(lines.join('\n')).not.toContain(bad);
    // An account's API key opens no runner endpoint; a runner token opens no account endpoint.
    expect(
      (await runnerPost(s.url, '/v1/runner/claim', { runnerId: 'x', waitSeconds: 0 }, TEST_KEY)).status,
    ).toBe(401);
    const asAccount = await fetch(`${s.url}/v1/check-statuses`, {
      headers: { authorization: `Bearer ${RUNNER_TOKEN}`, 'x-service-account': TEST_ACCOUNT },
    });
    expect(asAccount.status).toBe(401);
    // The runner program says the service refused it, and exits 2 without printing the token.
    const refused = startRunner(s.url, { token: bad });
    expect((await refused.exited).code).toBe(2);
    expect(refused.stderr()).toMatch(/refused this runner: the runner token is not valid/);
    expect(refused.stdout() + refused.stderr()).not.toContain(bad);
  });

  it('refuses a result for a run it was not given, or for another check than its run', async () => {
    const { s } = await start([
      { id: 'c1', frequency: '1h' },
      { id: 'c2', frequency: '1h' },
    ]);
    const run = await s.storage.offerRun(
      { accountId: TEST_ACCOUNT, checkId: 'c1', locationId: 'far', dueAt: Date.now() },
      Date.now(),
    );
    const res = await runnerPost(s.url, '/v1/runner/claim', { runnerId: 'r', waitSeconds: 0 });
    const [job] = ((await res.json()) as { data: { jobs: Array<{ runId: string; claimToken: string }> } })
      .data.jobs;
    expect(job!.runId).toBe(run!.id);
    await s.seed('c2', ['success'], { location: 'far' });
    const other = (await results(s, 'c2'))[0]!;
    const forged = await runnerPost(s.url, `/v1/runner/runs/${job!.runId}/result`, {
      claimToken: job!.claimToken,
      result: other,
    });
    expect(forged.status).toBe(422);
    expect(((await forged.json()) as { message: string }).message).toMatch(
      /is check "c1" at far; this result is "c2"/,
    );
    const never = await runnerPost(s.url, '/v1/runner/runs/no-such-run/result', {
      claimToken: job!.claimToken,
      result: { ...other, checkId: 'c1' },
    });
    expect(never.status).toBe(404);
    const wrongToken = await runnerPost(s.url, `/v1/runner/runs/${job!.runId}/result`, {
      claimToken: 'r:guess',
      result: { ...other, checkId: 'c1' },
    });
    expect(wrongToken.status).toBe(409);
    expect(await results(s, 'c1')).toHaveLength(0);
  });

  it('answers each result of a post of many on its own: stored, refused, or malformed', async () => {
    const { s } = await start([
      { id: 'c1', frequency: '1h' },
      { id: 'c2', frequency: '1h' },
      { id: 'c3', frequency: '1h' },
    ]);
    for (const checkId of ['c1', 'c2', 'c3'])
      await s.storage.offerRun(
        { accountId: TEST_ACCOUNT, checkId, locationId: 'far', dueAt: Date.now() },
        Date.now(),
      );
    const res = await runnerPost(s.url, '/v1/runner/claim', { runnerId: 'r', waitSeconds: 0 });
    type Job = { runId: string; claimToken: string; job: { check: { id: string } } };
    const { jobs } = ((await res.json()) as { data: { jobs: Job[] } }).data;
    const job = (id: string) => jobs.find((j) => j.job.check.id === id)!;
    await s.seed('c2', ['success'], { location: 'far' });
    const sample = (await results(s, 'c2'))[0]!;
    const resultOf = (checkId: string) => ({ ...sample, checkId });
    const posted = await runnerPost(s.url, '/v1/runner/results', {
      results: [
        { runId: job('c1').runId, claimToken: job('c1').claimToken, result: resultOf('c1') },
        { runId: job('c2').runId, claimToken: job('c2').claimToken, result: resultOf('c3') },
        { runId: job('c3').runId, claimToken: 'r:guess', result: resultOf('c3') },
        { runId: 'no-such-run', claimToken: job('c1').claimToken, result: resultOf('c1') },
        { runId: job('c3').runId, claimToken: job('c3').claimToken, result: { checkId: 'c3' } },
        { runId: job('c1').runId, claimToken: job('c1').claimToken, result: resultOf('c1') },
      ],
    });
    expect(posted.status).toBe(200);
    const { answers } = (
      (await posted.json()) as {
        data: { answers: Array<{ runId: string; status: number; message?: string }> };
      }
    ).data;
    expect(answers.map((a) => [a.runId, a.status])).toEqual([
      [job('c1').runId, 200],
      [job('c2').runId, 422],
      [job('c3').runId, 409],
      ['no-such-run', 404],
      [job('c3').runId, 400],
      [job('c1').runId, 409], // the same run twice: stored once
    ]);
    expect(answers[4]!.message).toMatch(/results\[4\]\.result\./);
    expect((await results(s, 'c1')).map((r) => r.id)).toEqual([job('c1').runId]);
    expect(await results(s, 'c3')).toHaveLength(0);
  });

  it('keeps finished results while the service restarts and posts them when it is back', async () => {
    const dbPath = join(mkdtempSync(join(tmpdir(), 'checkwall-runner-')), 'service.db');
    const first = await start([{ id: 'c1', frequency: '1h', path: '/hang' }], {
      dbPath,
      startScheduler: true,
    });
    const { t, config } = first;
    const port = Number(new URL(first.s.url).port);
    const runner = startRunner(first.s.url, { id: 'survivor' });
    await until(
      () => t.fixture.seen.length > 0,
      20_000,
      () => 'the runner never ran c1',
    );
    await first.s.close();
    await t.release(); // the run finishes while the service is away
    await runner.waitFor(/lost the service/);
    service = await startTestService({ config, dbPath, port, startScheduler: true });
    const s = service;
    await runner.waitFor(/back in touch/);
    await until(
      async () => (await results(s, 'c1')).length === 1,
      20_000,
      () => 'the buffered result never arrived',
    );
    expect(await perDueTime(s, 'c1')).toEqual([1]);
    expect(
      runner
        .stdout()
        .split('\n')
        .filter((l) => /lost the service/.test(l)),
    ).toHaveLength(1);
  });

  it('shows a remote location with no runner as unknown, saying so, and known again when one connects', async () => {
    const { s } = await start([{ id: 'c1', frequency: '2s' }], { startScheduler: true });
    const before = await farLocation(s);
    expect(before.far).toMatchObject({ status: 'unknown', remote: true, runnerLastSeen: null });
    expect(before.far.statusReason).toBe('no runner connected for Far Away');
    expect(before.check.statusReason).toContain('no runner connected for Far Away');
    const runner = startRunner(s.url);
    await until(
      async () => (await farLocation(s)).far.status === 'passing',
      30_000,
      () => 'never passing',
    );
    expect((await farLocation(s)).far.runnerLastSeen).not.toBeNull();
    runner.child.kill('SIGTERM');
    await runner.exited;
    await until(
      async () =>
        (await farLocation(s)).check.statusReason?.includes('no runner connected for Far Away') ?? false,
      30_000,
      () => 'never unknown again',
    );
    expect((await farLocation(s)).far.status).toBe('unknown');
  });
});
