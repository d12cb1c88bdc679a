// A nightly job that missed its run and was rerun by hand: its success ping closes the page
// (docs/status-rules.md), though 1 of its 2 runs of the day failed (availability 50 %).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountConfig } from '../../helpers/configs.js';
import { createFakeClock } from '../../helpers/fake-clock.js';
import { startTestService, type TestService } from '../../helpers/service.js';
import { ping, runsOf, statusOf, watchUntil } from './helpers.js';

const M = 60_000;
const TOKEN = 'hb-nightly-0123456789';
const clock = createFakeClock(Date.parse('2026-11-23T02:00:00.000Z'));
let svc: TestService;
beforeAll(async () => {
  const nightly = {
    id: 'nightly',
    type: 'heartbeat',
    token: TOKEN,
    frequency: undefined,
    schedule: '0 3 * * *',
    grace: '15m',
  };
  svc = await startTestService({ startScheduler: true, clock, config: accountConfig({ checks: [nightly] }) });
});
afterAll(() => svc.close());

describe('a missed nightly run, rerun by hand', () => {
  it('pages for the miss, and the rerun’s success closes the page', async () => {
    expect((await ping(svc, TOKEN)).status).toBe(200);
    clock.jump(25 * 60 * M + 16 * M); // tomorrow 03:16: 03:00 and its grace have passed
    await watchUntil(clock, async () =>
      (await runsOf(svc, 'nightly')).some((r) => r.heartbeat?.end === 'missed'),
    );
    const missed = await statusOf(svc, 'nightly');
    expect([missed.status, missed.currentAlert === null]).toEqual(['failing', false]);

    await clock.advance(M);
    expect((await ping(svc, TOKEN)).status).toBe(200);
    const rerun = await statusOf(svc, 'nightly');
    expect(rerun.availability.percentage).toBe(50);
    expect(rerun.status).toBe('degraded');
    expect(rerun.currentAlert).toBeNull();
  });
});
