// A location outage through an Alertmanager channel (docs/alerts.md, "A broken location" and
// "Alertmanager"): Alertmanager resolves an alert at its endsAt (3 × repostSeconds after a
// post), so while the outage stands its CheckwallLocationDown is posted again, as an open
// check alert is; at the outage's end it is resolved and posted no more. A remote location
// whose runners stopped, on the fake clock; a loopback receiver in Alertmanager's place.
import { describe, expect, it } from 'vitest';
import {
  alertmanagerHook,
  closedAfterEach,
  farRunnerAsks,
  farLocationConfig,
  startAlertService,
  startReceivers,
} from '../../helpers/alerting.js';
import { advanceBy, createFakeClock } from '../../helpers/fake-clock.js';

const held = closedAfterEach();

describe('a location outage in Alertmanager', { timeout: 60_000 }, () => {
  it('is posted again while it stands, so it keeps firing there, and resolved at its end', async () => {
    const r = (held.receivers = await startReceivers());
    const clock = createFakeClock(Date.now());
    const am = alertmanagerHook(r, ['f1', 'f2', 'f3']);
    const config = farLocationConfig(r, am.channel);
    const s = (held.svc = await startAlertService(config, clock, { startScheduler: false }));
    const posted = () => am.posted('CheckwallLocationDown');

    // No runner asks for work for three of the location's shortest periods (1 m): declared.
    await advanceBy(clock, 3 * 60_000 + 4_000, { stepMs: 2_000 });
    await expect.poll(() => posted().length).toBe(1);
    const declaredAt = clock.now();

    // A minute on: Alertmanager would have resolved the first post 15 s after it.
    await advanceBy(clock, 60_000, { stepMs: 1_000 });
    await expect.poll(() => posted().length).toBeGreaterThanOrEqual(10);
    const last = posted().at(-1)!;
    expect(last.labels).toMatchObject({ alertname: 'CheckwallLocationDown', location_id: 'far' });
    expect(Date.parse(last.endsAt)).toBeGreaterThan(declaredAt + 60_000);

    // A runner asks for work: the location is back, resolved, and posted no more.
    expect((await farRunnerAsks(s)).status).toBe(200);
    await advanceBy(clock, 4_000, { stepMs: 2_000 });
    await expect.poll(() => posted().some((a) => Date.parse(a.endsAt) <= clock.now())).toBe(true);
    const resolvedAfter = posted().length;
    await advanceBy(clock, 30_000, { stepMs: 1_000 });
    expect(posted()).toHaveLength(resolvedAfter);
  });
});
