// Conditional reads: the client sends If-None-Match with the ETag it last got for
// a URL and treats a 304 as "unchanged"; against a server that sends no ETags
// (a small node:http fixture) everything still works, by comparing bytes.
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, readAllStatuses } from '../../src/api/client.js';
import { json, startFixture, type Fixture } from '../helpers/fixture.js';
import { sampleStatus, statusPage } from '../helpers/samples.js';
import { startTestService, type TestService } from '../helpers/service.js';

const FAST = { retries: 2, baseDelayMs: 5, maxDelayMs: 20, maxRetryAfterMs: 5_000 };
let fixture: Fixture | undefined;
let svc: TestService | undefined;
afterEach(async () => {
  await fixture?.close();
  await svc?.close();
  fixture = svc = undefined;
});

/** A server that tags its one page with `"v<version>"` and answers 304 when asked with the current tag. */
async function taggedServer(opts: { etags: boolean }) {
  let version = 1;
  let body = statusPage([sampleStatus('a'), sampleStatus('b')], 1, 1, 2);
  fixture = await startFixture((req, res) => {
    const tag = `"v${version}"`;
    if (opts.etags && req.headers['if-none-match'] === tag) {
      res.writeHead(304, { etag: tag });
      res.end();
      return;
    }
    json(res, 200, body, opts.etags ? { etag: tag } : {});
  });
  const client = createClient({ baseUrl: fixture.url, apiKey: 'k', accountId: 'a', retry: FAST });
  const change = () => {
    version++;
    body = statusPage([sampleStatus('a'), sampleStatus('b', { status: 'failing' })], 1, 1, 2);
  };
  return { client, change, seen: fixture.seen };
}

describe('client: If-None-Match', () => {
  it('sends the last ETag of the URL and hands back the same objects on a 304', async () => {
    const { client, change, seen } = await taggedServer({ etags: true });
    const first = await client.checkStatuses({ page: 1 });
    expect(seen[0]!.headers['if-none-match']).toBeUndefined();
    const again = await client.checkStatuses({ page: 1 });
    expect(seen[1]!.headers['if-none-match']).toBe('"v1"');
    expect(again).toBe(first);
    // Another URL has no ETag yet.
    await client.checkStatuses({ page: 2 });
    expect(seen[2]!.headers['if-none-match']).toBeUndefined();
    change();
    const changed = await client.checkStatuses({ page: 1 });
    expect(changed).not.toBe(first);
    expect(changed.data[1]!.status).toBe('failing');
    await client.checkStatuses({ page: 1 });
    expect(seen[4]!.headers['if-none-match']).toBe('"v2"');
  });

  it('against a server without ETags sends none and still reuses an unchanged page', async () => {
    const { client, change, seen } = await taggedServer({ etags: false });
    const first = await client.checkStatuses({ page: 1 });
    expect(await client.checkStatuses({ page: 1 })).toBe(first);
    change();
    expect((await client.checkStatuses({ page: 1 })).data[1]!.status).toBe('failing');
    expect(seen.every((r) => r.headers['if-none-match'] === undefined)).toBe(true);
  });

  it.each([true, false])(
    'checkStatusesIfChanged says whether the page changed (ETags: %s)',
    async (etags) => {
      const { client, change } = await taggedServer({ etags });
      const first = await client.checkStatusesIfChanged({ page: 1 }, {});
      expect(first.changed).toBe(true);
      if (!first.changed) return;
      expect(first.value.data).toHaveLength(2);
      expect(first.etag).toBe(etags ? '"v1"' : undefined);
      const known = { etag: first.etag, digest: first.digest };
      expect((await client.checkStatusesIfChanged({ page: 1 }, known)).changed).toBe(false);
      change();
      const next = await client.checkStatusesIfChanged({ page: 1 }, known);
      expect(next.changed && next.value.data[1]!.status).toBe('failing');
    },
  );

  it('reads every page of the real service again unchanged, with the same objects', async () => {
    svc = await startTestService({ checks: 250 });
    const client = createClient({ baseUrl: svc.url, ...svc.credentials, retry: FAST });
    const first = await readAllStatuses(client);
    const again = await readAllStatuses(client);
    expect(again.checks).toHaveLength(250);
    again.checks.forEach((c, i) => expect(c).toBe(first.checks[i]));
    await svc.seed('c7', ['failed', 'failed', 'failed']);
    const third = await readAllStatuses(client);
    expect(third.checks.find((c) => c.checkId === 'c7')!.lastExecution).not.toBeNull();
    // Page 3 did not change: its checks are the very objects of the first read.
    expect(third.checks[249]).toBe(first.checks[249]);
  });
});
