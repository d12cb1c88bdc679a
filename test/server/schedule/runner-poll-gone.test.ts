// A long poll whose runner goes away (stopped, killed, or cut off) is given no runs:
// a claim made for it would hold them, unrun, until their lease ran out (150 s); one
// already made as it left is given back. Against the real service, its queue and real HTTP.
import { once } from 'node:events';
import type { Socket } from 'node:net';
import { setImmediate } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeClock } from '../../helpers/fake-clock.js';
import { claimJobs, remoteConfig, until } from '../../helpers/runner.js';
import { startTestService, TEST_ACCOUNT, type TestService } from '../../helpers/service.js';

let service: TestService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

const poll = (url: string, waitSeconds: number, signal?: AbortSignal) =>
  claimJobs(url, { runnerId: 'gone-test', max: 10, waitSeconds }, signal);

describe('a runner gone mid-poll', () => {
  it('is given nothing, and the run it would have taken goes to the next poll', async () => {
    // Offered by hand, so nothing else offers or wakes; the poll waits on the fake clock.
    const clock = createFakeClock();
    service = await startTestService({
      config: remoteConfig('http://127.0.0.1:9', [{ id: 'c1', frequency: '1h' }]),
      clock,
    });
    const now = clock.now();
    const run = await service.storage.offerRun(
      { accountId: TEST_ACCOUNT, checkId: 'c1', locationId: 'far', dueAt: now + 300 },
      now,
    );
    expect(run).not.toBeNull();
    // The poll finds nothing due and waits: its wait is a timer of the clock.
    const timers = clock.pending();
    const gone = new AbortController();
    const waiting = poll(service.url, 10, gone.signal).catch((error: unknown) => error);
    await expect.poll(() => clock.pending()).toBe(timers + 1);
    // The run falls due meanwhile; the runner goes, and the service sees it go (the wait ends).
    await clock.advance(600);
    gone.abort();
    expect(await waiting).toBeInstanceOf(Error);
    await expect.poll(() => clock.pending()).toBe(timers);
    // Past the poll's step (1 s) and gather: a claim it would make has been made by now.
    await clock.advance(1_500);
    expect((await service.storage.findRun(run!.id))!.token).toBeNull();
    expect((await poll(service.url, 0)).map((j) => j.runId)).toEqual([run!.id]);
  });

  it('gives back at once the runs claimed while its runner was leaving', async () => {
    service = await startTestService({
      config: remoteConfig('http://127.0.0.1:9', [
        { id: 'c1', frequency: '1h' },
        { id: 'c2', frequency: '1h' },
      ]),
    });
    const now = Date.now();
    const runs = await Promise.all(
      ['c1', 'c2'].map((checkId) =>
        service!.storage.offerRun({ accountId: TEST_ACCOUNT, checkId, locationId: 'far', dueAt: now }, now),
      ),
    );
    // The claim is made in the database; before it answers, the runner goes.
    const storage = service.storage;
    // The service's side of each connection, to see it close.
    const sockets: Socket[] = [];
    service.app.server.on('connection', (socket: Socket) => sockets.push(socket));
    const realClaim = storage.claimRuns.bind(storage);
    const gone = new AbortController();
    let claimed: Awaited<ReturnType<typeof realClaim>> = [];
    let answered: Promise<unknown> = Promise.resolve();
    storage.claimRuns = (...args) => {
      const answer = (async () => {
        claimed = await realClaim(...args);
        gone.abort();
        // The service sees the connection close (the poll's signal aborts) before this answers.
        await Promise.all(sockets.map((socket) => (socket.destroyed ? undefined : once(socket, 'close'))));
        await setImmediate();
        return claimed;
      })();
      answered = answer;
      return answer;
    };
    expect(await poll(service.url, 0, gone.signal).catch((error: unknown) => error)).toBeInstanceOf(Error);
    await answered;
    storage.claimRuns = realClaim;
    expect(claimed.map((r) => r.id).sort()).toEqual(runs.map((r) => r!.id).sort());
    // The route gives them back once the claim answers: their lease ends then, not 150 s on.
    const leaseEnded = async () =>
      (await Promise.all(claimed.map((r) => storage.findRun(r.id)))).every(
        (run) => run !== null && run.leaseUntil !== null && run.leaseUntil <= Date.now(),
      );
    await until(leaseEnded, 5_000, () => 'the runs claimed as the runner left were never given back');
    // Given back, not held for the 150 s lease: the next poll gets both, on their second attempt.
    const next = await poll(service.url, 0);
    expect(next.map((j) => j.runId).sort()).toEqual(runs.map((r) => r!.id).sort());
    expect(next.map((j) => j.attempt)).toEqual([2, 2]);
  });
});
