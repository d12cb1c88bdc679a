// When the dispatcher looks for work (alerting/dispatcher.ts): at once when told, at
// the very instant a retry it recorded falls due, and otherwise only on a slow poll,
// so an idle service does not ask the outbox four times a second.
import { afterEach, describe, expect, it } from 'vitest';
import { createDispatcher } from '../../../src/server/alerting/dispatcher.js';
import type { Senders } from '../../../src/server/alerting/senders/index.js';
import type { SendOutcome } from '../../../src/server/alerting/senders/types.js';
import { openSqliteStorage } from '../../../src/server/storage/sqlite/index.js';
import type { Storage } from '../../../src/server/storage/types.js';
import { createFakeClock } from '../../helpers/fake-clock.js';

const A = 'account-a';
const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const o of opened.splice(0).reverse()) await o.close();
});

/** A storage that counts the outbox's claims; a webhook sender answering from `answers`, in turn. */
async function setUp(answers: SendOutcome[]) {
  const clock = createFakeClock();
  const real = openSqliteStorage(':memory:');
  opened.push(real);
  let claims = 0;
  const storage = new Proxy(real, {
    get(target, name, receiver) {
      if (name === 'claimNotifications') claims++;
      return Reflect.get(target, name, receiver) as unknown;
    },
  }) as Storage;
  const made = await real.createChannel(
    A,
    { type: 'WEBHOOK', name: 'hook', config: { url: 'https://x.example/h', method: 'POST' } },
    10,
    clock.now(),
  );
  if (!made.ok) throw new Error('no channel');
  const sent: number[] = [];
  const send = () => {
    sent.push(clock.now());
    return Promise.resolve(answers[sent.length - 1] ?? { ok: true as const });
  };
  const senders = { byType: { WEBHOOK: send }, close: () => Promise.resolve() } as unknown as Senders;
  const dispatcher = createDispatcher({
    storage,
    senders,
    clock,
    policy: { attemptTimeoutMs: 5_000, maxAttempts: 5, retryBaseMs: 1_000, retryMaxMs: 60_000 },
    transportSecrets: [],
  });
  opened.push({ close: () => dispatcher.stop() });
  const enqueue = (id: string) =>
    real.enqueueNotification(
      A,
      {
        id,
        channelId: made.channel.id,
        checkId: 'c1',
        alertId: null,
        event: 'failure',
        status: 'pending',
        payload: {},
      },
      clock.now(),
    );
  return { clock, dispatcher, enqueue, sent, claims: () => claims };
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
