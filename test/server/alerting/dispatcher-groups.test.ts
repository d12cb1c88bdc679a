// A grouped message (alerting/dispatcher.ts, grouping.ts; docs/alerts.md, "Grouping per channel"):
// refused, its notifications are due again at one instant, so the retry is one message again
// ("a group refused is each of them retried, together"); larger than one claim, it is still
// one message; sent, it is recorded sent on every row before anything else can fail.
import { afterEach, describe, expect, it } from 'vitest';
import type { SendOutcome } from '../../../src/server/alerting/senders/types.js';
import { dispatcherOnFakeClock } from '../../helpers/dispatcher.js';

const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const o of opened.splice(0).reverse()) await o.close();
});

type Setup = Awaited<ReturnType<typeof dispatcherOnFakeClock>>;

/** `n` failures of as many checks in one group of the channel, due in a second; their ids. */
async function grouped(t: Setup, n: number): Promise<string[]> {
  const [channel] = (await t.storage.listChannels('account-a', 0, 10)).items;
  const until = t.clock.now() + 1_000;
  const ids = Array.from({ length: n }, (_, i) => `g${i}`);
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
  return ids;
}

describe('a grouped message', () => {
  it('refused, is retried as one message', async () => {
    const answers: SendOutcome[] = [{ ok: false, permanent: false, error: 'HTTP 503' }];
    const t = await dispatcherOnFakeClock(() => Promise.resolve(answers.shift() ?? { ok: true as const }));
    opened.push(t);
    const ids = await grouped(t, 3);
    t.dispatcher.start();
    // Due at its group's time, found by the next 2 s poll.
    await t.clock.advance(2_000);
    expect(t.sent).toHaveLength(1);
    // The backoff after a first attempt is at most the 1 s base.
    await t.clock.advance(1_000);
    expect(t.sent).toHaveLength(2);
    for (const id of ids)
      expect(await t.storage.notification(id)).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('of more notifications than one claim takes is still one message', async () => {
    const t = await dispatcherOnFakeClock(() => Promise.resolve({ ok: true as const }));
    opened.push(t);
    const ids = await grouped(t, 40);
    t.dispatcher.start();
    await t.clock.advance(2_000);
    expect(t.sent).toHaveLength(1);
    for (const id of ids) expect(await t.storage.notification(id)).toMatchObject({ status: 'sent' });
  });

  it('sent, is recorded on every row before anything else is told, so none goes again', async () => {
    let told = 0;
    const onFinished = () => (told++ === 0 ? Promise.reject(new Error('reread failed')) : Promise.resolve());
    const t = await dispatcherOnFakeClock(() => Promise.resolve({ ok: true as const }), { onFinished });
    opened.push(t);
    const ids = await grouped(t, 2);
    t.dispatcher.start();
    await t.clock.advance(2_000);
    // Long past the lease (the attempt's 5 s and its 20 s margin): nothing is claimed again.
    await t.clock.advance(30_000);
    expect(t.sent).toHaveLength(1);
    for (const id of ids) expect(await t.storage.notification(id)).toMatchObject({ status: 'sent' });
  });
});
