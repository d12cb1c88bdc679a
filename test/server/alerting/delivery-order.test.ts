// A recovery never overtakes its failure (docs/alerts.md, "A check's notices in order"),
// through the real service: the receiver refuses the failure once, the check recovers while
// the failure waits for its retry, and the receiver hears the failure, then the recovery.
import { describe, expect, it } from 'vitest';
import { json } from '../../helpers/fixture.js';
import {
  alertConfig,
  hookEvents,
  runner,
  startAlertService,
  startReceivers,
  closedAfterEach,
} from '../../helpers/alerting.js';

const held = closedAfterEach();

describe('a failure being retried', () => {
  it('is heard before the recovery that came meanwhile', async () => {
    const r = (held.receivers = await startReceivers());
    r.hook.handle((_req, res, n) => json(res, n === 1 ? 503 : 200, {}));
    // A retry 0.5 to 1 s after the 503: time for the recovery to be written meanwhile.
    const s = (held.svc = await startAlertService(alertConfig(r, { delivery: { retryBaseSeconds: 1 } })));
    const run = runner(s);
    await run('c1', ['failed', 'failed']);
    await expect.poll(() => r.hook.seen.length).toBe(1);
    await run('c1', ['success', 'success']);
    await expect.poll(() => r.hook.seen.length, { timeout: 5_000 }).toBe(3);
    expect(hookEvents(r).map((e) => e.event)).toEqual(['failure', 'failure', 'recovery']);
  });
});
