// A dispatcher (alerting/dispatcher.ts) over an in-memory SQLite outbox with one
// webhook channel, on the fake clock: its sender answers as the test says, and each
// send's instant and the outbox's claims are counted.
import { createDispatcher, type DispatcherDeps } from '../../src/server/alerting/dispatcher.js';
import type { Senders } from '../../src/server/alerting/senders/index.js';
import type { SendOutcome } from '../../src/server/alerting/senders/types.js';
import { openSqliteStorage } from '../../src/server/storage/sqlite/index.js';
import type { Storage } from '../../src/server/storage/types.js';
import { createFakeClock, type FakeClock } from './fake-clock.js';

const ACCOUNT = 'account-a';

/**
 * `answer` is called for each send with its abort signal (`o.url`: the channel's, `o.config`: more
 * of its config, `o.onFinished`: the dispatcher's); `close` stops the dispatcher and storage.
 */
export async function dispatcherOnFakeClock(
  answer: (signal: AbortSignal, clock: FakeClock) => Promise<SendOutcome>,
  o: { url?: string; config?: Record<string, unknown>; onFinished?: DispatcherDeps['onFinished'] } = {},
) {
  const clock = createFakeClock();
  const real = openSqliteStorage(':memory:');
  let claims = 0;
  // While set, a claim answers only once it settles (a database that does not answer).
  let claimsWait: Promise<void> | undefined;
  const storage = new Proxy(real, {
    get(target, name, receiver) {
      const member = Reflect.get(target, name, receiver) as unknown;
      if (name !== 'claimNotifications') return member;
      claims++;
      const claim = member as Storage['claimNotifications'];
      return (...args: Parameters<Storage['claimNotifications']>) =>
        (claimsWait ?? Promise.resolve()).then(() => claim.apply(target, args));
    },
  }) as Storage;
  const made = await real.createChannel(
    ACCOUNT,
    {
      type: 'WEBHOOK',
      name: 'hook',
      config: { url: o.url ?? 'https://x.example/h', method: 'POST', ...o.config },
    },
    10,
    clock.now(),
  );
  if (!made.ok) throw new Error('no channel');
  const sent: number[] = [];
  const send = (_message: unknown, signal: AbortSignal) => {
    sent.push(clock.now());
    return answer(signal, clock);
  };
  const senders = { byType: { WEBHOOK: send }, close: () => Promise.resolve() } as unknown as Senders;
  const dispatcher = createDispatcher({
    storage,
    senders,
    clock,
    policy: { attemptTimeoutMs: 5_000, maxAttempts: 5, retryBaseMs: 1_000, retryMaxMs: 60_000 },
    transportSecrets: [],
    ...(o.onFinished ? { onFinished: o.onFinished } : {}),
  });
  const enqueue = (id: string) =>
    real.enqueueNotification(
      ACCOUNT,
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
  const close = async () => {
    await dispatcher.stop();
    await real.close();
  };
  const holdClaims = (until: Promise<void>) => void (claimsWait = until);
  return { clock, dispatcher, storage: real, enqueue, sent, claims: () => claims, holdClaims, close };
}
