// The runner's loop (runners/remote-client.ts) in process against the real service on
// 127.0.0.1:0: real HTTP and queue; only the run itself is the test's (execute).
import { afterEach, describe, expect, it } from 'vitest';
import { createRunnerLoop } from '../../../src/server/runners/remote-client.js';
import { lostReason } from '../../../src/server/runners/remote-post.js';
import type { RunnerJob } from '../../../src/api/schemas/runner.js';
import { remoteConfig, RUNNER_TOKEN, storedResults, until } from '../../helpers/runner.js';
import { startFixture } from '../../helpers/fixture.js';
import { locationStatus } from '../../helpers/multi-instance.js';
import { sampleResult } from '../../helpers/samples.js';
import { startTestService, TEST_ACCOUNT, type TestService } from '../../helpers/service.js';

let service: TestService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

const far = { id: 'far', name: 'Far Away', region: 'elsewhere' };

/** A result of the job as a runner makes it, its response body `bodyBytes` long, on a clock `skewMs` off. */
function resultOf(job: RunnerJob, bodyBytes = 2, skewMs = 0) {
  const at = new Date(Date.now() + skewMs).toISOString();
  return sampleResult(job.runId, {
    checkId: job.job.check.id,
    location: far,
    startedAt: at,
    finishedAt: at,
    duration: 0,
    response: {
      statusCode: 200,
      statusText: 'OK',
      headers: {},
      body: 'x'.repeat(bodyBytes),
      responseTime: 0,
      size: bodyBytes,
    },
  });
}

async function offerNow(s: TestService, checkIds: string[]) {
  const now = Date.now();
  for (const checkId of checkIds)
    await s.storage.offerRun({ accountId: TEST_ACCOUNT, checkId, locationId: 'far', dueAt: now }, now);
}

describe('the runner loop', () => {
  it('posts large results in posts the service takes, not in one it refuses whole', async () => {
    const ids = Array.from({ length: 60 }, (_, i) => `c${i}`);
    service = await startTestService({
      config: remoteConfig(
        'http://127.0.0.1:9',
        ids.map((id) => ({ id, frequency: '1h' })),
      ),
    });
    const s = service;
    await offerNow(s, ids);
    const lines: string[] = [];
    // 220 KB bodies, as a service whose maxStoredBodyBytes is 256 KB has its runners keep:
    // 60 of them are more than the service takes in one post (12 MB).
    const loop = createRunnerLoop({
      service: s.url,
      location: 'far',
      token: RUNNER_TOKEN,
      runnerId: 'big',
      concurrency: 100,
      waitSeconds: 0,
      execute: async (job) => resultOf(job, 220_000),
      log: (line) => lines.push(line),
    });
    const running = loop.run();
    try {
      // Done when both ends of the batch are stored, or when the runner says it was refused.
      await until(
        async () =>
          lines.some((l) => /refused/.test(l)) ||
          (await storedResults(s, 'c0')).length + (await storedResults(s, 'c59')).length === 2,
        10_000,
        () => lines.join('\n'),
      );
      const stored = await Promise.all(ids.map((id) => storedResults(s, id)));
      expect(stored.map((r) => r.length)).toEqual(ids.map(() => 1));
      expect(lines.join('\n')).not.toMatch(/refused/);
    } finally {
      await loop.stop(0);
      await running;
    }
  });

  it("dates a result on the service's clock when the runner's is off", async () => {
    service = await startTestService({
      config: remoteConfig('http://127.0.0.1:9', [
        { id: 'ahead', frequency: '1h' },
        { id: 'behind', frequency: '1h' },
      ]),
    });
    const s = service;
    const from = Date.now();
    await offerNow(s, ['ahead', 'behind']);
    const hour = 3_600_000;
    const loop = createRunnerLoop({
      service: s.url,
      location: 'far',
      token: RUNNER_TOKEN,
      runnerId: 'skewed',
      concurrency: 4,
      waitSeconds: 0,
      execute: async (job) => resultOf(job, 2, job.job.check.id === 'ahead' ? hour : -hour),
      log: () => {},
    });
    const running = loop.run();
    // Read up to two hours ahead: a result dated in the runner's future is found too.
    const of = async (checkId: string) =>
      (
        await s.storage.queryResults({
          accountId: TEST_ACCOUNT,
          checkId,
          from: 0,
          to: Date.now() + 2 * hour,
          sortBy: 'startedAt',
          sortOrder: 'asc',
          offset: 0,
          limit: 10,
        })
      ).items;
    const stored = async () => [...(await of('ahead')), ...(await of('behind'))];
    try {
      await until(
        async () => (await stored()).length === 2,
        10_000,
        () => 'not stored',
      );
    } finally {
      await loop.stop(0);
      await running;
    }
    const to = Date.now();
    for (const result of await stored()) {
      expect(Date.parse(result.startedAt)).toBeGreaterThanOrEqual(from);
      expect(Date.parse(result.finishedAt)).toBeLessThanOrEqual(to);
    }
    // A runner an hour ahead would otherwise count as in touch for an hour after it went.
    const seen = (await locationStatus(s.url, 'ahead', 'far'))?.runnerLastSeen;
    expect(Date.parse(seen ?? '')).toBeLessThanOrEqual(Date.now());
  });

  it('says why a post to a service that did not answer in time failed: a code that is no string', () => {
    // What a post's clock (domain/deadline.ts) aborts it with: its code is a number.
    const timedOut = new DOMException('The operation was aborted due to timeout', 'TimeoutError');
    expect(lostReason(timedOut)).toBe('The operation was aborted due to timeout');
    expect(lostReason(Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }))).toBe(
      'nothing listens at its address: ECONNREFUSED',
    );
  });

  it('says why it cannot reach the service in words, naming the address', async () => {
    /** The first line the loop logs against `service`, after which it is stopped. */
    async function firstLine(service: string) {
      const lines: string[] = [];
      const loop = createRunnerLoop({
        service,
        location: 'far',
        token: RUNNER_TOKEN,
        runnerId: 'lost',
        concurrency: 1,
        waitSeconds: 0,
        execute: () => Promise.reject(new Error('nothing is run')),
        log: (line) => lines.push(line),
      });
      const running = loop.run();
      await until(
        () => lines.length > 0,
        10_000,
        () => 'nothing logged',
      );
      await loop.stop(0);
      await running;
      return lines[0]!;
    }
    const dns = await firstLine('http://no-such-host.invalid');
    expect(dns).toMatch(
      /lost the service at http:\/\/no-such-host\.invalid \(its host name does not resolve: ENOTFOUND\)/,
    );
    // Something answers there, but not the service (a wrong --service): a 404 page, or a page that is not JSON.
    let status = 404;
    const page = await startFixture((_req, res) => res.writeHead(status).end('<html>'));
    try {
      const notOurs = 'from something that is not a checkwall service: is --service its address?';
      expect(await firstLine(page.url)).toContain(`(HTTP 404 ${notOurs})`);
      status = 200;
      expect(await firstLine(page.url)).toContain(`(an answer ${notOurs})`);
    } finally {
      await page.close();
    }
  });

  it('runs a run once when its lease runs out while it still runs and it is given back to this runner', async () => {
    service = await startTestService({
      config: remoteConfig('http://127.0.0.1:9', [{ id: 'slow', frequency: '1h' }]),
      runnerLeaseMs: 1_000,
    });
    const s = service;
    await offerNow(s, ['slow']);
    const runs: string[] = [];
    // Longer than the lease (as a browser run waiting for one of the runner's pages can be).
    const loop = createRunnerLoop({
      service: s.url,
      location: 'far',
      token: RUNNER_TOKEN,
      runnerId: 'slow',
      concurrency: 2,
      waitSeconds: 1,
      execute: async (job) => {
        runs.push(job.runId);
        const started = Date.now();
        await new Promise((resolve) => setTimeout(resolve, 2_500));
        const duration = Date.now() - started;
        return { ...resultOf(job), startedAt: new Date(started).toISOString(), duration };
      },
      log: () => {},
    });
    const running = loop.run();
    try {
      await until(
        async () => (await storedResults(s, 'slow')).length === 1,
        10_000,
        () => `not stored; runs: ${runs.length}`,
      );
    } finally {
      await loop.stop(0);
      await running;
    }
    expect(runs).toHaveLength(1);
    const [stored] = await storedResults(s, 'slow');
    const run = (await s.storage.findRun(stored!.id))!;
    expect(run.attempt).toBeGreaterThanOrEqual(2);
    // Dated when it started, before the claim it was reported under (its lease is 1 s).
    expect(Date.parse(stored!.startedAt)).toBeLessThan(run.leaseUntil! - 1_000);
  });
});
