// Every list page carries an ETag, and If-None-Match naming it is answered 304
// with no body; a change to what the page shows changes its ETag.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchesIfNoneMatch } from '../../../src/server/http/etag.js';
import { startTestService, TEST_ACCOUNT, TEST_KEY, type TestService } from '../../helpers/service.js';

describe('matchesIfNoneMatch', () => {
  it.each<[string | string[] | undefined, boolean]>([
    [undefined, false],
    ['"abc"', true],
    ['W/"abc"', true],
    ['"xyz", "abc"', true],
    [['"xyz"', '"abc"'], true],
    ['*', true],
    ['"abcd"', false],
    ['abc', false],
    ['', false],
  ])('%j against "abc" is %s', (header, match) => {
    expect(matchesIfNoneMatch(header, '"abc"')).toBe(match);
  });
});

describe('conditional GETs of the list endpoints', () => {
  let svc: TestService;
  const auth = { authorization: `Bearer ${TEST_KEY}`, 'x-service-account': TEST_ACCOUNT };
  const get = (path: string, etag?: string) =>
    fetch(`${svc.url}${path}`, { headers: { ...auth, ...(etag ? { 'if-none-match': etag } : {}) } });

  beforeAll(async () => {
    svc = await startTestService({ checks: 250 });
    await svc.seed('c1', ['success', 'success']);
    const res = await fetch(`${svc.url}/v1/alert-channels`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'EMAIL', name: 'mail', config: { address: 'ops@example.com' } }),
    });
    expect(res.status).toBe(201);
  });
  afterAll(() => svc.close());

  it.each([
    '/v1/check-statuses',
    '/v1/check-statuses?page=3&sortBy=name&limit=100',
    '/v1/check-statuses?status=failing',
    '/v1/check-results/c1',
    '/v1/dashboards',
    '/v1/alert-channels',
  ])('%s: 200 with an ETag, then 304 with no body for it', async (path) => {
    const first = await get(path);
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]+"$/);
    const body = await first.json();
    expect(body).toHaveProperty('data');
    const again = await get(path, etag!);
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    expect(await again.text()).toBe('');
    const weak = await get(path, `W/${etag!}`);
    expect(weak.status).toBe(304);
    await weak.text();
  });

  it('answers 200 with the page to an ETag it no longer matches', async () => {
    const stale = await get('/v1/check-statuses?sortBy=name&limit=100', '"not-this-one"');
    expect(stale.status).toBe(200);
    expect(((await stale.json()) as { data: unknown[] }).data).toHaveLength(100);
  });

  it('gives another page another ETag, and the same bytes from another query the same one', async () => {
    const tag = async (path: string) => {
      const res = await get(path);
      await res.arrayBuffer();
      return res.headers.get('etag');
    };
    const one = await tag('/v1/check-statuses?sortBy=name&page=1&limit=100');
    const two = await tag('/v1/check-statuses?sortBy=name&page=2&limit=100');
    expect(two).not.toBe(one);
    // Every check is tagged prod: another answer is built and cached, with the same bytes.
    expect(await tag('/v1/check-statuses?sortBy=name&page=1&limit=100&tags=prod')).toBe(one);
  });

  it('changes the ETag of the page whose check changed, and only that page', async () => {
    const pageOf = async (page: number, etag?: string) =>
      get(`/v1/check-statuses?sortBy=name&limit=100&page=${page}&includeSummary=false`, etag);
    const first = await pageOf(1);
    const third = await pageOf(3);
    const [e1, e3] = [first.headers.get('etag')!, third.headers.get('etag')!];
    await Promise.all([first.arrayBuffer(), third.arrayBuffer()]);
    await svc.seed('c250', ['failed', 'failed', 'failed']);
    // Check 0250 sorts on page 3 by name: page 1 is unchanged, page 3 is not.
    const again1 = await pageOf(1, e1);
    expect(again1.status).toBe(304);
    const again3 = await pageOf(3, e3);
    expect(again3.status).toBe(200);
    expect(again3.headers.get('etag')).not.toBe(e3);
    const body = (await again3.json()) as { data: Array<{ checkId: string; lastExecution: unknown }> };
    expect(body.data.find((c) => c.checkId === 'c250')?.lastExecution).not.toBeNull();
  });

  it('gives a list of results over a rolling period the same ETag while its results stay', async () => {
    // DECISION (docs/decisions.md#shapes): the timeframe a rolling period resolves to moves every millisecond; the
    // ETag covers the results and their paging, so an unchanged list is a 304.
    const first = await get('/v1/check-results/c1?period=24h');
    const etag = first.headers.get('etag')!;
    await first.arrayBuffer();
    const again = await get('/v1/check-results/c1?period=24h', etag);
    expect(again.status).toBe(304);
    await svc.seed('c1', ['failed']);
    const changed = await get('/v1/check-results/c1?period=24h', etag);
    expect(changed.status).toBe(200);
    expect(((await changed.json()) as { data: unknown[] }).data).toHaveLength(3);
  });

  it('still answers errors in the error shape, without an ETag', async () => {
    const res = await get('/v1/check-statuses?limit=0', '*');
    expect(res.status).toBe(400);
    expect(res.headers.get('etag')).toBeNull();
    expect(await res.json()).toHaveProperty('message');
  });
});
