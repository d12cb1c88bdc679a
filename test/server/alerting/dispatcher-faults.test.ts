// A database that fails while a message is under way (alerting/dispatcher.ts): the attempt is
// left to its lease, which runs out and is claimed again, and the failure is no unhandled
// rejection, which would end the whole service (Node's default) on a database's blip.
import { afterEach, describe, expect, it } from 'vitest';
import { dispatcherOnFakeClock } from '../../helpers/dispatcher.js';

const opened: Array<{ close(): Promise<void> }> = [];
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
afterEach(async () => {
  process.off('unhandledRejection', onUnhandled);
  for (const o of opened.splice(0).reverse()) await o.close();
});

describe('the dispatcher, its database failing mid-attempt', () => {
  it('sends the page once its lease runs out, and the service lives on', async () => {
    process.on('unhandledRejection', onUnhandled);
    const t = await dispatcherOnFakeClock(() => Promise.resolve({ ok: true as const }));
    opened.push(t);
    const channel = t.storage.channel.bind(t.storage);
    let fail = true;
    // The connection drops as the attempt reads its channel, once.
    t.storage.channel = (...args) => {
      if (!fail) return channel(...args);
      fail = false;
      return Promise.reject(new Error('Connection terminated unexpectedly'));
    };
    await t.enqueue('n1');
    t.dispatcher.start();
    await t.clock.advance(0);
    await new Promise((resolve) => setImmediate(resolve));
    expect(unhandled).toEqual([]);
    expect(t.sent).toEqual([]);
    // The lease (the attempt's 5 s and its 20 s margin) runs out; the next poll claims it again.
    await t.clock.advance(27_000);
    expect(t.sent).toHaveLength(1);
    expect(await t.storage.notification('n1')).toMatchObject({ status: 'sent', attempts: 2 });
  });
});
