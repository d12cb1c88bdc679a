// A `certificate` event under a maintenance window in silence mode (issues 33 and 35),
// end to end: a loopback HTTPS target whose intermediate is about to expire, run by the
// service, a window made over the API and a real webhook receiver. Under the window the
// notice is logged `suppressed` with `maintenance: <name>`, once however many runs see
// it, and nothing is sent; the first run after the window ends sends it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  alertConfig,
  askRun,
  certificateEvents,
  AUTH,
  closedAfterEach,
  notifications,
  post,
  startAlertService,
  startReceivers,
} from '../../helpers/alerting.js';
import { advanceUntil, createFakeClock } from '../../helpers/fake-clock.js';
import { makeChain, serveChain, type Chain, type HttpsTarget } from '../../helpers/certificates.js';
import { TEST_ACCOUNT, type TestService } from '../../helpers/service.js';

const HOUR_MS = 3_600_000;
const held = closedAfterEach();
let far: Chain;
let near: Chain;
let target: HttpsTarget;
beforeAll(async () => {
  far = await makeChain({ leafDays: 200, intermediateDays: 300 });
  near = await makeChain({ leafDays: 10, intermediateDays: 5, name: 'Expiring' });
  target = await serveChain(far);
});
afterAll(() => target.close());

/** How many results of c1 are stored, whatever the (moved) clock says. */
const stored = async (s: TestService) =>
  (
    await s.storage.queryResults({
      accountId: TEST_ACCOUNT,
      checkId: 'c1',
      from: 0,
      to: Number.MAX_SAFE_INTEGER,
      sortBy: 'startedAt',
      sortOrder: 'asc',
      offset: 0,
      limit: 1_000,
    })
  ).items.length;

/** Runs c1 now and waits until its result is stored (the scheduler may add its own). */
const runNow = async (s: TestService) => {
  const before = await stored(s);
  expect(await askRun(s, 'c1')).toBe(202);
  await expect.poll(() => stored(s), { timeout: 30_000 }).toBeGreaterThan(before);
};

describe('a certificate event under a maintenance window', { timeout: 120_000 }, () => {
  it('is logged suppressed once while the window lasts, and sent by the first run after it', async () => {
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
    const sent = () => certificateEvents(r);
    const logged = async () => (await notifications(s)).filter((n) => n.event === 'certificate');

    // The first run (at once: a new check catches up within seconds of the clock) sees a
    // certificate far from expiry: nothing to say.
    await advanceUntil(clock, async () => (await stored(s)) > 0, {
      idle: () => s.runStats().running === 0,
      withinMs: 10_000,
    });
    await expect.poll(() => stored(s), { timeout: 30_000 }).toBe(1);

    const made = await post(s, '/v1/maintenance-windows', {
      name: 'deploy 4.2',
      reason: 'rolling deploy',
      scope: { checks: ['c1'] },
      duration: '2h',
    });
    expect(made.status).toBe(201);

    // The certificate is replaced by one whose chain expires in 4 days: past 14, not 3.
    target.present(near);
    await runNow(s);
    await expect
      .poll(async () => (await logged()).map((n) => [n.status, n.lastError]), { timeout: 30_000 })
      .toEqual([['suppressed', 'maintenance: deploy 4.2']]);

    // More runs inside the window see the same notice pending: none is logged again.
    await runNow(s);
    clock.jump(HOUR_MS);
    await runNow(s);

    // The window ends by time; the first run after it sends the notice, once.
    clock.jump(HOUR_MS + 60_000);
    await clock.advance(1_000); // the maintenance tick, every second of the clock
    await expect
      .poll(
        async () => {
          const res = await fetch(`${s.url}/v1/maintenance-windows/${String(made.body['id'])}`, {
            headers: AUTH,
          });
          return ((await res.json()) as { state: string }).state;
        },
        { timeout: 30_000 },
      )
      .toBe('ended');
    await runNow(s);
    await expect.poll(() => sent().length, { timeout: 30_000 }).toBe(1);
    expect(sent()[0]!.certificate).toMatchObject({
      issuer: 'CN=Expiring Intermediate CA',
      threshold: 14,
      daysRemaining: 4,
      chain: true,
    });
    // Results are judged in order: a notice logged by the runs inside the window would be
    // in the log before the one sent; there is exactly the one suppressed, then the one sent.
    await expect
      .poll(async () => (await logged()).map((n) => n.status).sort(), { timeout: 30_000 })
      .toEqual(['sent', 'suppressed']);

    // Sent is recorded: the next run sends nothing more.
    await runNow(s);
    await runNow(s);
    expect((await logged()).length).toBe(2);
    expect(sent()).toHaveLength(1);
  });
});
