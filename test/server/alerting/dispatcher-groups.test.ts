// A grouped message refused (alerting/dispatcher.ts, grouping.ts): its notifications are due
// again at one instant, so the retry is one message again, not one per notification (docs/alerts.md,
// "Grouping per channel": a group refused is each of them retried, together).
import { afterEach, describe, expect, it } from 'vitest';
import type { SendOutcome } from '../../../src/server/alerting/senders/types.js';
import { dispatcherOnFakeClock } from '../../helpers/dispatcher.js';

const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const o of opened.splice(0).reverse()) await o.close();
});

describe('a grouped message refused', () => {
  it('is retried as one message', async () => {
    const answers: SendOutcome[] = [{ ok: false, permanent: false, error: 'HTTP 503' }];
    const t = await dispatcherOnFakeClock(() => Promise.resolve(answers.shift() ?? { ok: true as const }));
    opened.push(t);
    const [channel] = (await t.storage.listChannels('account-a', 0, 10)).items;
    const until = t.clock.now() + 1_000;
    for (const id of ['g1', 'g2', 'g3'])
      await t.storage.enqueueNotification(
        'account-a',
        {
          id,
          channelId: channel!.id,
          checkId: id,
          alertId: `a-${id}`,
          event: 'failure',
          status: 'pending',
          payload: { check: { id, name: id } },
          groupUntil: until,
        },
        t.clock.now(),
      );
    t.dispatcher.start();
    // Due at its group's time, found by the next 2 s poll.
    await t.clock.advance(2_000);
    expect(t.sent).toHaveLength(1);
    // The backoff after a first attempt is at most the 1 s base.
    await t.clock.advance(1_000);
    expect(t.sent).toHaveLength(2);
    for (const id of ['g1', 'g2', 'g3'])
      expect(await t.storage.notification(id)).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('of more notifications than one claim takes is still one message', async () => {
    const t = await dispatcherOnFakeClock(() => Promise.resolve({ ok: true as const }));
    opened.push(t);
    const [channel] = (await t.storage.listChannels('account-a', 0, 10)).items;
    const until = t.clock.now() + 1_000;
    const ids = Array.from({ length: 40 }, (_, i) => `g${i}`);
    for (const id of ids)
      await t.storage.enqueueNotification(
        'account-a',
        {
          id,
          channelId: channel!.id,
          checkId: id,
          alertId: `a-${id}`,
          event: 'failure',
          status: 'pending',
          payload: { check: { id, name: id } },
          groupUntil: until,
        },
        t.clock.now(),
      );
    t.dispatcher.start();
    await t.clock.advance(2_000);
    expect(t.sent).toHaveLength(1);
    for (const id of ids) expect(await t.storage.notification(id)).toMatchObject({ status: 'sent' });
  });
});
