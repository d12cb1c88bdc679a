// A mail server that answers a message's data only after the attempt timed out (a server
// scanning what it takes) may still take it: nodemailer cannot call it back. The retry,
// under the same delivery id, waits for that message and sends no second copy; one the
// server refused late is sent again.
import { afterEach, describe, expect, it } from 'vitest';
import { emailSender } from '../../../src/server/alerting/senders/email.js';
import type { Delivery } from '../../../src/server/alerting/senders/types.js';
import { startSmtpReceiver } from '../../helpers/alerting.js';
import { payload } from './dialects/hostile.js';

const opened: Array<{ close(): unknown }> = [];
afterEach(async () => {
  for (const o of opened.splice(0).reverse()) await o.close();
});

const delivery = (id: string): Delivery =>
  ({
    id,
    payload: payload('failure'),
    channel: {
      id: 1,
      accountId: 'acme',
      name: 'mail',
      type: 'EMAIL',
      config: { address: 'oncall@example.test' },
    },
  }) as unknown as Delivery;

/** nodemailer waits 2 s of silence; the attempt only 100 ms, and the server answers at 250 ms. */
async function slowServer(refuse: () => boolean = () => false) {
  const smtp = await startSmtpReceiver({ answerAfterMs: 250, refuse });
  const send = emailSender({ url: smtp.url, from: 'checkwall@example.test' }, 2_000);
  opened.push(smtp, send);
  return { smtp, send };
}

describe('a mail the server takes after its attempt timed out', () => {
  it('is not sent again by the retry', async () => {
    const { smtp, send } = await slowServer();
    const first = await send(delivery('d1'), AbortSignal.timeout(100));
    expect(first).toMatchObject({ ok: false, permanent: false, error: 'timed out after 2 s' });
    const retry = await send(delivery('d1'), AbortSignal.timeout(2_000));
    expect(retry).toEqual({ ok: true });
    expect(smtp.mails).toHaveLength(1);
    // Another delivery is its own message.
    expect(await send(delivery('d2'), AbortSignal.timeout(2_000))).toEqual({ ok: true });
    expect(smtp.mails).toHaveLength(2);
  });

  it('is sent again when the server refused it late', async () => {
    let refusing = true;
    const { smtp, send } = await slowServer(() => refusing);
    expect(await send(delivery('d3'), AbortSignal.timeout(100))).toMatchObject({ ok: false });
    await new Promise((resolve) => setTimeout(resolve, 300));
    refusing = false;
    expect(await send(delivery('d3'), AbortSignal.timeout(2_000))).toEqual({ ok: true });
    expect(smtp.mails).toHaveLength(1);
  });
});
