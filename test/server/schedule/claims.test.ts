// The claim protocol (schedule/claims.ts) driven directly, without HTTP: a real
// queue (SQLite in memory), a real runner hub and the real clock.
import { afterEach, describe, expect, it } from 'vitest';
import { createClaims } from '../../../src/server/schedule/claims.js';
import { systemClock } from '../../../src/domain/clock.js';
import { parseClaimToken } from '../../../src/server/schedule/claim-token.js';
import { createRunnerHub } from '../../../src/server/schedule/runner-hub.js';
import { openSqliteStorage } from '../../../src/server/storage/sqlite/index.js';
import type { Storage } from '../../../src/server/storage/types.js';
import { remoteConfig } from '../../helpers/runner.js';
import { sampleResult } from '../../helpers/samples.js';
import { TEST_ACCOUNT } from '../../helpers/service.js';

let storage: Storage | undefined;
afterEach(async () => {
  await storage?.close();
  storage = undefined;
});

function setUp() {
  const config = remoteConfig('http://127.0.0.1:9', [
    { id: 'c1', frequency: '1h' },
    { id: 'c2', frequency: '1h' },
  ]);
  const account = config.accounts[0]!;
  const place = { account, location: account.locations.find((l) => l.id === 'far')! };
  const queue = (storage = openSqliteStorage(':memory:'));
  const hub = createRunnerHub({ config, queue, now: Date.now, onReturn: () => {} });
  const answered = { claims: 0 };
  /** Called after the queue answers a claim, before the poll sees the answer. */
  const onClaimed: { then?: () => void } = {};
  const claims = createClaims({
    hub,
    queue: {
      claimRuns: async (...args) => {
        const runs = await queue.claimRuns(...args);
        answered.claims++;
        onClaimed.then?.();
        return runs;
      },
      findRun: (id) => queue.findRun(id),
      releaseRuns: (...args) => queue.releaseRuns(...args),
      skipStaleRuns: (...args) => queue.skipStaleRuns(...args),
    },
    complete: (held, { screenshot, ...result }) =>
      queue.completeRun(held.id, held.token, held.accountId, result, screenshot),
    check: (a, checkId) => a.checks.find((c) => c.id === checkId),
    leaseMs: 60_000,
    clock: systemClock,
    closing: new AbortController().signal,
  });
  const offer = (checkId: string) =>
    queue.offerRun({ accountId: TEST_ACCOUNT, checkId, locationId: 'far', dueAt: Date.now() }, Date.now());
  return { queue, hub, claims, place, answered, onClaimed, offer };
}

const ask = (waitMs: number) => ({ runnerId: 'r1', max: 10, waitMs });
const never = () => new AbortController().signal;

describe('claims', () => {
  it('gives a poll the runs due at once, under a token naming its runner', async () => {
    const { claims, place, offer, answered } = setUp();
    const offered = await Promise.all([offer('c1'), offer('c2')]);
    const claimed = await claims.poll(place, ask(10_000), never());
    expect(claimed.map((c) => c.run.id).sort()).toEqual(offered.map((r) => r!.id).sort());
    expect(claimed.map((c) => c.check.id).sort()).toEqual(['c1', 'c2']);
    expect(parseClaimToken(claimed[0]!.run.token)?.runnerId).toBe('r1');
    expect(answered.claims).toBe(1);
  });

  it('keeps a poll waiting when nothing is due, and a run falling due wakes it', async () => {
    const { claims, place, offer, answered, hub } = setUp();
    const polling = claims.poll(place, ask(30_000), never());
    // Its first claim found nothing: it waits.
    await expect.poll(() => answered.claims).toBe(1);
    const run = await offer('c1');
    const mark = hub.missedMark(TEST_ACCOUNT, 'far');
    hub.wake(TEST_ACCOUNT, 'far');
    // The wake found the poll waiting (a wake finding no one is noted as missed).
    expect(hub.missedSince(TEST_ACCOUNT, 'far', mark)).toBe(false);
    const claimed = await polling;
    expect(claimed.map((c) => c.run.id)).toEqual([run!.id]);
  });

  it('gives back at once the runs claimed as the poll was aborted', async () => {
    const { claims, place, offer, onClaimed, queue } = setUp();
    const offered = await Promise.all([offer('c1'), offer('c2')]);
    const gone = new AbortController();
    onClaimed.then = () => gone.abort();
    expect(await claims.poll(place, ask(10_000), gone.signal)).toEqual([]);
    onClaimed.then = undefined;
    // Their lease ended as they were given back: the next poll gets them, on a second attempt.
    for (const run of offered)
      expect((await queue.findRun(run!.id))!.leaseUntil).toBeLessThanOrEqual(Date.now());
    const again = await claims.poll(place, ask(0), never());
    expect(again.map((c) => c.run.id).sort()).toEqual(offered.map((r) => r!.id).sort());
    expect(again.map((c) => c.run.attempt)).toEqual([2, 2]);
  });

  it('completes a reported result once, by the holder of the claim only', async () => {
    const { claims, place, offer } = setUp();
    await offer('c1');
    const { run } = (await claims.poll(place, ask(0), never()))[0]!;
    const result = sampleResult('x', { location: { id: 'far', name: 'Far Away', region: 'elsewhere' } });
    const report = (claimToken: string, runId = run.id) =>
      claims.complete(place, { runId, claimToken, result });
    expect(await report('r1:someone-else')).toEqual({ kind: 'late' });
    expect(await report(run.token, 'no-such-run')).toEqual({ kind: 'unknown' });
    expect(
      await claims.complete(place, {
        runId: run.id,
        claimToken: run.token,
        result: { ...result, checkId: 'c2' },
      }),
    ).toMatchObject({ kind: 'mismatch', run: { checkId: 'c1', locationId: 'far' } });
    // Its check removed from the config while the run was out: nothing to store, and said so.
    const removed = { ...place, account: { ...place.account, checks: [] } };
    expect(await claims.complete(removed, { runId: run.id, claimToken: run.token, result })).toMatchObject({
      kind: 'gone',
      run: { checkId: 'c1' },
    });
    expect(await report(run.token)).toEqual({ kind: 'stored' });
    expect(await report(run.token)).toEqual({ kind: 'late' });
  });
});
