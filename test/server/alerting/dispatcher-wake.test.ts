// When the dispatcher looks for work (alerting/dispatcher.ts): at once when told, at
// the very instant a retry it recorded falls due, and otherwise only on a slow poll,
// so an idle service does not ask the outbox four times a second.
import { afterEach, describe, expect, it } from 'vitest';
import type { SendOutcome } from '../../../src/server/alerting/senders/types.js';
import { dispatcherOnFakeClock } from '../../helpers/dispatcher.js';

const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const o of opened.splice(0).reverse()) await o.close();
});

/** A dispatcher whose webhook sender answers from `answers`, in turn (then ok). */
async function setUp(answers: SendOutcome[]) {
  let n = 0;
  const t = await dispatcherOnFakeClock(() => Promise.resolve(answers[n++] ?? { ok: true as const }));
  opened.push(t);
  return t;
}

describe('the dispatcher wakes', () => {
  it('for a retry at the instant it falls due, not at the next poll', async () => {
    const t = await setUp([{ ok: false, permanent: false, error: 'HTTP 429', retryAfterMs: 700 }]);
    await t.enqueue('n1');
    const t0 = t.clock.now();
    t.dispatcher.start();
    await t.clock.advance(0);
    expect(t.sent).toEqual([t0]);
    await t.clock.advance(699);
    expect(t.sent).toHaveLength(1);
    await t.clock.advance(1);
    expect(t.sent).toEqual([t0, t0 + 700]);
  });

  it('when told of a new notification, and polls the outbox only every 2 s when idle', async () => {
    const t = await setUp([]);
    t.dispatcher.start();
    await t.clock.advance(10_000);
    // The first look at start, then one a poll.
    expect(t.claims()).toBe(6);
    await t.enqueue('n1');
    const at = t.clock.now();
    t.dispatcher.kick();
    await t.clock.advance(0);
    expect(t.sent).toEqual([at]);
  });
});
