// Run ids pair a /start with its end; an end that pairs with none still ends the run under
// way, as Healthchecks.io reads it (docs/service.md, "Heartbeats"): a success without a rid
// (a job that sent its rid on /start only) or a failure with another rid is no run too long.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountConfig } from '../../helpers/configs.js';
import { createFakeClock } from '../../helpers/fake-clock.js';
import { startTestService, type TestService } from '../../helpers/service.js';
import { ping, runsOf, statusOf, watchUntil } from './helpers.js';

const M = 60_000;
/** Two reports a run of which may take 2 m, one a test. */
const report = (id: string) => ({
  id,
  type: 'heartbeat',
  token: `hb-${id}-0123456789`,
  frequency: '1h',
  grace: '1m',
  maxRunTime: '2m',
});
const clock = createFakeClock(Date.parse('2026-11-23T02:59:00.000Z'));
let svc: TestService;
beforeAll(async () => {
  svc = await startTestService({
    startScheduler: true,
    clock,
    config: accountConfig({ checks: [report('plain'), report('other')] }),
  });
});
afterAll(() => svc.close());

/** A check's runs once its maxRunTime has long passed, the watch having turned after it. */
async function runsAfterMaxRunTime(checkId: string) {
  await clock.advance(3 * M);
  let turns = 0;
  await watchUntil(clock, async () => ++turns > 3);
  return (await runsOf(svc, checkId)).map((r) => [r.status, r.heartbeat?.end, r.duration]);
}

describe('an end that pairs with no start', () => {
  it('without a rid, ends the run its /start?rid= began: untimed, and no run too long', async () => {
    const token = 'hb-plain-0123456789';
    expect((await ping(svc, `${token}/start?rid=night-1`)).status).toBe(200);
    await clock.advance(10_000);
    expect((await ping(svc, token, 'done')).status).toBe(200);
    expect((await statusOf(svc, 'plain')).runningSince).toBeNull();
    expect(await runsAfterMaxRunTime('plain')).toEqual([['success', 'success', 0]]);
    expect((await statusOf(svc, 'plain')).status).toBe('passing');
  });

  it('a failure with another rid ends it too; a success with another rid does not', async () => {
    const token = 'hb-other-0123456789';
    await ping(svc, `${token}/start?rid=night-1`);
    await clock.advance(10_000);
    await ping(svc, `${token}/fail?rid=night-2`);
    expect((await statusOf(svc, 'other')).runningSince).toBeNull();
    await ping(svc, `${token}/start?rid=night-3`);
    await clock.advance(10_000);
    await ping(svc, `${token}/0?rid=night-4`);
    // A success naming another run leaves night-3 under way: it still overruns.
    expect((await statusOf(svc, 'other')).runningSince).not.toBeNull();
    const runs = await runsAfterMaxRunTime('other');
    expect(runs).toHaveLength(3);
    expect(runs).toEqual(
      expect.arrayContaining([
        ['failed', 'fail', 0],
        ['success', 'exit', 0],
        ['failed', 'overrun', 2 * M],
      ]),
    );
  });
});
