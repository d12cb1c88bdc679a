// The delivery log keeps a channel's URL out of a receiver's error (docs/alerts.md, "Secrets in
// errors and logs") also when the receiver echoes only a part of it: a web framework's 404
// names the path ("Cannot POST /hooks/<token>"), and a path or a query value is often the
// only key a webhook has; or when the answer is cut inside an echoed secret. A read key sees
// the log.
import { afterEach, describe, expect, it } from 'vitest';
import { answerLine } from '../../../src/server/alerting/senders/http.js';
import { dispatcherOnFakeClock } from '../../helpers/dispatcher.js';

const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const o of opened.splice(0).reverse()) await o.close();
});

const PATH_TOKEN = 'T0AB12CD/B0EF34GH/path-token-0123456789';
const QUERY_TOKEN = 'query-token-0123456789';

describe('a receiver echoing part of the channel URL', () => {
  it('has the part masked in the delivery log', async () => {
    const said = `HTTP 404: the receiver refused the request: Cannot POST /services/${PATH_TOKEN} (token ${QUERY_TOKEN}, json expected)`;
    const t = await dispatcherOnFakeClock(
      () => Promise.resolve({ ok: false, permanent: true, error: said }),
      { url: `https://hooks.example/services/${PATH_TOKEN}?token=${QUERY_TOKEN}&format=json` },
    );
    opened.push(t);
    await t.enqueue('n1');
    t.dispatcher.start();
    await t.clock.advance(0);
    const row = await t.storage.notification('n1');
    expect(row).toMatchObject({ status: 'failed' });
    expect(row!.lastError).toContain('HTTP 404: the receiver refused the request: Cannot POST [redacted]');
    expect(row!.lastError).not.toContain('path-token');
    expect(row!.lastError).not.toContain(QUERY_TOKEN);
    // A short query value is a setting, not a key: the receiver's words keep it.
    expect(row!.lastError).toContain('json expected');
  });
});

describe('a receiver echoing a secret where its answer is cut', () => {
  it('has the secret’s start masked too', async () => {
    const key = 'R0123456789abcdef0123456789abcdef';
    // The provider's words, cut at 300 characters (senders/http.ts) inside the echoed key.
    const line = answerLine(JSON.stringify({ message: `${'x'.repeat(270)} bad routing key ${key}` }));
    const t = await dispatcherOnFakeClock(
      () =>
        Promise.resolve({
          ok: false,
          permanent: true,
          error: `HTTP 400: the receiver refused the request: ${line}`,
        }),
      { url: 'https://events.example/v2/enqueue', config: { routingKey: key } },
    );
    opened.push(t);
    await t.enqueue('n1');
    t.dispatcher.start();
    await t.clock.advance(0);
    const row = await t.storage.notification('n1');
    expect(row).toMatchObject({ status: 'failed' });
    expect(line).toContain(key.slice(0, 8));
    expect(row!.lastError).not.toContain(key.slice(0, 8));
    expect(row!.lastError).toMatch(/bad routing key \[redacted\]$/);
  });
});
