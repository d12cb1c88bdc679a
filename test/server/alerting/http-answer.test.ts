// An HTTP sender's answer whose body never ends (alerting/senders/http.ts): the status has
// told the outcome already. Read as a timeout, a 200 was sent again at each retry (a chat
// message, an SMS: no delivery id to drop the copies by) and a 400 was retried.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpPoster } from '../../../src/server/alerting/senders/http.js';

const TIMEOUT_MS = 300;
const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((resolve) => s.close(resolve));
  }
});

/** A receiver that answers `status` with the start of a body, and never ends it. */
async function stalling(status: number): Promise<string> {
  const server = createServer((_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.write('{"ok": true, "padding": "');
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
}

describe('an answer whose body never ends', () => {
  const send = async (url: string) => {
    const post = createHttpPoster(TIMEOUT_MS);
    try {
      return await post(
        { method: 'POST', url, headers: {}, body: '{}' },
        AbortSignal.timeout(TIMEOUT_MS * 2),
      );
    } finally {
      await post.close();
    }
  };

  it('is delivered on a 2xx, not sent again', async () => {
    const sent = await send(await stalling(200));
    expect(sent).toMatchObject({ ok: true, exchange: { answer: { status: 200 } } });
  });

  it('is refused for good on a 400, not retried', async () => {
    const sent = await send(await stalling(400));
    expect(sent).toMatchObject({
      ok: false,
      permanent: true,
      error: 'HTTP 400: the receiver refused the request',
    });
  });
});

describe('a redirect', () => {
  it('is not followed, and the log says to change the URL', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(308, { location: 'https://elsewhere.example/hook' });
      res.end();
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    const post = createHttpPoster(TIMEOUT_MS);
    const sent = await post(
      { method: 'POST', url, headers: {}, body: '{}' },
      AbortSignal.timeout(TIMEOUT_MS),
    );
    await post.close();
    expect(sent).toMatchObject({
      ok: false,
      permanent: true,
      error:
        "HTTP 308: the receiver redirected the request; redirects are not followed, set the channel's URL to the new address",
    });
  });
});
