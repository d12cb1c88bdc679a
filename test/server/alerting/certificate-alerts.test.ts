// The `certificate` event (issue 35) end to end: a check of a loopback HTTPS target
// whose intermediate expires in 5 days, run by the service's scheduler, delivering
// to a real webhook receiver: once per threshold crossed, not again on the next run,
// again for the next threshold as the days go by, and anew for a renewed certificate.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  alertConfig,
  askRun,
  certificateEvents,
  closedAfterEach,
  notifications,
  startAlertService,
  startReceivers,
  statusOf,
} from '../../helpers/alerting.js';
import { advanceUntil, createFakeClock } from '../../helpers/fake-clock.js';
import { makeChain, serveChain, type Chain, type HttpsTarget } from '../../helpers/certificates.js';
import { storedResults } from '../../helpers/runner.js';
import type { TestService } from '../../helpers/service.js';

const DAY_MS = 86_400_000;
const held = closedAfterEach();
let chain: Chain;
let target: HttpsTarget;
beforeAll(async () => {
  chain = await makeChain({ leafDays: 10, intermediateDays: 5 });
  target = await serveChain(chain);
});
afterAll(() => target.close());

const runNow = async (s: TestService) => expect(await askRun(s, 'c1')).toBe(202);

describe('certificate events', { timeout: 90_000 }, () => {
  it('go to the webhook once per threshold crossed, and not again on the next run', async () => {
    const r = (held.receivers = await startReceivers());
    // At the real time: the results it seeds are as recent as the service's own.
    const clock = createFakeClock(Date.now());
    const config = alertConfig(r, {
      checks: {
        c1: { target: `${target.url}/`, insecureTls: true, frequency: '1h', locations: ['eu-west'] },
      },
      alerts: { c1: { certificateExpiryDays: [14, 3] } },
    });
    const s = (held.svc = await startAlertService(config, clock, { startScheduler: true }));
    const events = () => certificateEvents(r);

    // The first run (a new check catches up within seconds of the clock): 4 days left in the
    // chain crosses 14, not 3.
    await advanceUntil(clock, async () => (await storedResults(s, 'c1')).length > 0, {
      idle: () => s.runStats().running === 0,
      withinMs: 10_000,
    });
    await expect.poll(() => events().length, { timeout: 30_000 }).toBe(1);
    const first = events()[0]!;
    expect(first.check).toMatchObject({ id: 'c1' });
    expect(first.certificate).toEqual({
      subject: 'CN=localhost',
      issuer: 'CN=Checkwall Test Intermediate CA',
      validTo: chain.intermediate.notAfter.toISOString(),
      daysRemaining: 4,
      chain: true,
      threshold: 14,
      location: { id: 'eu-west', name: 'Frankfurt' },
    });
    expect(r.hook.seen[0]!.headers['x-checkwall-delivery']).toBe(first.deliveryId);
    // The status carries the days remaining of the chain's first expiry.
    expect((await statusOf(s, 'c1')).certificate).toEqual({
      daysRemaining: 4,
      validTo: chain.intermediate.notAfter.toISOString(),
    });

    // The next run sees the same certificate with the same days left: nothing more.
    await runNow(s);
    await expect.poll(async () => (await storedResults(s, 'c1')).length, { timeout: 30_000 }).toBe(2);
    // Two days on, fewer than 3 remain: the next threshold, once. (Had the run before
    // sent anything, it would be here before this one: a check's results go in order.)
    clock.jump(2 * DAY_MS);
    await runNow(s);
    await expect.poll(() => events().length, { timeout: 30_000 }).toBe(2);
    expect(events()[1]!.certificate).toMatchObject({ daysRemaining: 2, threshold: 3, chain: true });
    expect(events().map((e) => e.certificate?.threshold)).toEqual([14, 3]);

    // A renewed certificate (new serials, the same lifetimes) starts over: one notice, for
    // the lowest threshold it has crossed, the higher recorded with it. Issued, as the first
    // chain was, a moment before the clock started: the clock's two days have gone by since.
    const issuedAt = clock.now() - 2 * DAY_MS - 1_000;
    target.present(await makeChain({ leafDays: 10, intermediateDays: 5, name: 'Renewed', now: issuedAt }));
    await runNow(s);
    await expect.poll(() => events().length, { timeout: 30_000 }).toBe(3);
    expect(events()[2]!.certificate).toMatchObject({
      issuer: 'CN=Renewed Intermediate CA',
      threshold: 3,
      daysRemaining: 2,
    });

    // Through the same outbox and delivery log as every event.
    const logged = async () =>
      (await notifications(s)).filter((n) => n.event === 'certificate').map((n) => n.status);
    await expect.poll(logged).toEqual(['sent', 'sent', 'sent']);
  });
});
