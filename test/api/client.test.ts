// The client against real HTTP on 127.0.0.1: a scripted fixture for the faults,
// the project's own service for the happy paths (test/api/client-service.test.ts).
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, readAllStatuses, toQueryString } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';
import { closedPortUrl, json, startFixture, type Fixture } from '../helpers/fixture.js';
import { sampleResult, sampleStatus, statusPage } from '../helpers/samples.js';

const KEY = 'cw_test_key_0123456789';
const ACCOUNT = '6f1c1a2e-5b7d-4c59-9a43-2d1f0e7b8c91';
const FAST = { retries: 2, baseDelayMs: 5, maxDelayMs: 20, maxRetryAfterMs: 5_000 };

let fixture: Fixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

async function serve(handler: Parameters<typeof startFixture>[0]) {
  fixture = await startFixture(handler);
  return createClient({ baseUrl: fixture.url, apiKey: KEY, accountId: ACCOUNT, retry: FAST });
}

/** Runs a call that must fail and returns its ApiError. */
async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

function expectNoKey(error: ApiError) {
  const everything = JSON.stringify({ ...error, message: error.message, stack: error.stack });
  expect(everything).not.toContain(KEY);
}

const emptyResults = {
  data: [],
  meta: {
    checkId: 'c1',
    checkName: 'c1',
    currentPage: 1,
    totalPages: 1,
    totalItems: 0,
    limit: 10,
    hasMore: false,
    timeframe: { from: '2026-11-21T10:00:00.000Z', to: '2026-11-22T10:00:00.000Z' },
  },
};
const emptyPage = { data: [], meta: { currentPage: 1, totalPages: 1, totalItems: 0, limit: 10 } };
const catalogue = {
  data: {
    responseTimeMetrics: [],
    successMetrics: [],
    volumeMetrics: [],
    browserSpecificMetrics: [],
    heartbeatSpecificMetrics: [],
  },
  meta: { totalMetrics: 0, categories: [], checkTypes: [] },
};

describe('client requests', () => {
  it('sends both auth headers on every endpoint and serialises every query', async () => {
    const client = await serve((req, res) => {
      if (req.url.startsWith('/v1/check-results')) return json(res, 200, emptyResults);
      if (req.url.startsWith('/v1/check-statuses')) return json(res, 200, statusPage([], 1, 1, 0));
      if (req.url.startsWith('/v1/analytics')) return json(res, 200, catalogue);
      if (req.method === 'POST') {
        return json(res, 201, {
          id: 7,
          createdAt: '2026-11-22T10:00:00.000Z',
          updatedAt: '2026-11-22T10:00:00.000Z',
          ...(JSON.parse(req.body) as object),
        });
      }
      return json(res, 200, emptyPage);
    });
    await client.checkResults('c/1', {
      period: '6h',
      status: 'failed',
      location: 'eu-west',
      triggeredBy: 'manual',
      responseTimeMin: 10,
      responseTimeMax: 900,
      page: 2,
      limit: 50,
      sortBy: 'duration',
      sortOrder: 'asc',
      includeSummary: false,
    });
    await client.checkStatuses({
      status: 'failing',
      tags: ['a', 'b'],
      hasIncident: true,
      availabilityMin: 90.5,
    });
    await client.dashboards({ tags: ['ops'], isPrivate: false });
    await client.alertChannels({ page: 3 });
    await client.metrics('BROWSER', {
      category: 'core_web_vitals',
      format: 'summary',
      includeExamples: true,
    });
    const created = await client.createAlertChannel({
      type: 'EMAIL',
      name: 'on-call',
      config: { address: 'oncall@example.com' },
    });
    expect(created.id).toBe(7);

    const urls = fixture!.seen.map((r) => `${r.method} ${r.url}`);
    expect(urls).toEqual([
      'GET /v1/check-results/c%2F1?period=6h&status=failed&location=eu-west&triggeredBy=manual&responseTimeMin=10&responseTimeMax=900&page=2&limit=50&sortBy=duration&sortOrder=asc&includeSummary=false',
      'GET /v1/check-statuses?status=failing&tags=a%2Cb&hasIncident=true&availabilityMin=90.5',
      'GET /v1/dashboards?tags=ops&isPrivate=false',
      'GET /v1/alert-channels?page=3',
      'GET /v1/analytics/metrics/BROWSER?category=core_web_vitals&format=summary&includeExamples=true',
      'POST /v1/alert-channels',
    ]);
    for (const req of fixture!.seen) {
      expect(req.headers['authorization']).toBe(`Bearer ${KEY}`);
      expect(req.headers['x-service-account']).toBe(ACCOUNT);
    }
    const post = fixture!.seen.at(-1)!;
    expect(post.headers['content-type']).toBe('application/json');
    expect(JSON.parse(post.body)).toEqual({
      type: 'EMAIL',
      name: 'on-call',
      config: { address: 'oncall@example.com' },
    });
  });

  it('leaves undefined parameters out of the query string', () => {
    expect(toQueryString({ a: undefined, b: 1, c: false })).toBe('?b=1&c=false');
    expect(toQueryString({})).toBe('');
  });

  it('reads three pages of statuses until the last one', async () => {
    const client = await serve((req, res) => {
      const page = Number(new URL(req.url, 'http://x').searchParams.get('page'));
      const data = [0, 1].map((i) => sampleStatus(`p${page}-${i}`));
      json(res, 200, statusPage(page === 3 ? data.slice(0, 1) : data, page, 3, 5));
    });
    const all = await readAllStatuses(client, { status: 'failing' });
    expect(all.checks.map((c) => c.checkId)).toEqual(['p1-0', 'p1-1', 'p2-0', 'p2-1', 'p3-0']);
    expect(all.summary?.totalChecks).toBe(5);
    // In name order, which cannot move a check from one page to another while they are read;
    // the summary is asked for once. Pages 2 and 3 are asked for together.
    const urls = fixture!.seen.map((r) => r.url);
    expect(urls[0]).toBe('/v1/check-statuses?sortBy=name&status=failing&page=1&limit=100');
    expect(urls.slice(1).sort()).toEqual([
      '/v1/check-statuses?sortBy=name&status=failing&page=2&limit=100&includeSummary=false',
      '/v1/check-statuses?sortBy=name&status=failing&page=3&limit=100&includeSummary=false',
    ]);
  });

  it('reads the pages after the first four at a time, and keeps them in page order', async () => {
    let inFlight = 0;
    let most = 0;
    const client = await serve((req, res) => {
      const page = Number(new URL(req.url, 'http://x').searchParams.get('page'));
      inFlight++;
      most = Math.max(most, inFlight);
      // Later pages answer sooner, so an order kept by arrival would be wrong.
      setTimeout(
        () => {
          inFlight--;
          json(res, 200, statusPage([sampleStatus(`p${page}`)], page, 12, 12));
        },
        page === 1 ? 0 : 5 * (13 - page),
      );
    });
    const all = await readAllStatuses(client);
    expect(all.checks.map((c) => c.checkId)).toEqual(Array.from({ length: 12 }, (_, i) => `p${i + 1}`));
    expect(fixture!.seen).toHaveLength(12);
    expect(most).toBe(4);
  });

  it('stops at a page that comes back empty', async () => {
    const client = await serve((req, res) => {
      const page = Number(new URL(req.url, 'http://x').searchParams.get('page'));
      json(res, 200, statusPage(page >= 3 ? [] : [sampleStatus(`p${page}`)], page, 5, 5));
    });
    const all = await readAllStatuses(client);
    expect(all.checks.map((c) => c.checkId)).toEqual(['p1', 'p2']);
  });
});

describe('client: unchanged pages', () => {
  it('hands back the same objects for a page that came back byte for byte the same', async () => {
    let body = statusPage([sampleStatus('a'), sampleStatus('b')], 1, 1, 2);
    const client = await serve((_req, res) => json(res, 200, body));
    const first = await client.checkStatuses({ page: 1 });
    const again = await client.checkStatuses({ page: 1 });
    expect(again).toBe(first);
    // Another page (another URL) is parsed on its own.
    expect(await client.checkStatuses({ page: 2 })).not.toBe(first);
    body = statusPage([sampleStatus('a'), sampleStatus('b', { status: 'failing' })], 1, 1, 2);
    const changed = await client.checkStatuses({ page: 1 });
    expect(changed).not.toBe(first);
    expect(changed.data[1]!.status).toBe('failing');
  });

  it('never remembers an answer that failed to decode', async () => {
    const client = await serve((_req, res) => json(res, 200, { data: 'nope' }));
    for (let i = 0; i < 2; i++) expect((await failure(client.checkStatuses())).kind).toBe('decode');
  });
});

describe('client retries', () => {
  it('retries a GET through a 503 and succeeds', async () => {
    const client = await serve((_req, res, n) =>
      n <= 2
        ? json(res, 503, { statusCode: 503, error: 'Service Unavailable', message: 'busy' })
        : json(res, 200, emptyPage),
    );
    const page = await client.dashboards();
    expect(page.data).toEqual([]);
    expect(fixture!.seen).toHaveLength(3);
  });

  it('honours Retry-After on 429', async () => {
    const client = await serve((_req, res, n) =>
      n === 1
        ? json(
            res,
            429,
            { statusCode: 429, error: 'Too Many Requests', message: 'slow down' },
            { 'retry-after': '1' },
          )
        : json(res, 200, emptyPage),
    );
    await client.alertChannels();
    const [first, second] = fixture!.seen;
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(950);
  });

  it('gives up after its retries and reports the last answer', async () => {
    const client = await serve((_req, res) =>
      json(res, 502, { statusCode: 502, error: 'Bad Gateway', message: 'upstream' }),
    );
    const error = await failure(client.dashboards());
    expect(error).toMatchObject({ kind: 'http', status: 502, serverMessage: 'upstream', retryable: true });
    expect(fixture!.seen).toHaveLength(3);
  });

  it('hands a long Retry-After to the caller instead of waiting', async () => {
    const client = await serve((_req, res) =>
      json(
        res,
        429,
        { statusCode: 429, error: 'Too Many Requests', message: 'later' },
        { 'retry-after': '120' },
      ),
    );
    const error = await failure(client.dashboards());
    expect(error.retryAfterMs).toBe(120_000);
    expect(fixture!.seen).toHaveLength(1);
  });

  it('never retries a POST', async () => {
    const client = await serve((_req, res) =>
      json(res, 503, { statusCode: 503, error: 'Service Unavailable', message: 'x' }),
    );
    const error = await failure(
      client.createAlertChannel({
        type: 'SMS',
        name: 'pager',
        config: { number: '+14155550123', name: 'pager' },
      }),
    );
    expect(error.status).toBe(503);
    expect(fixture!.seen).toHaveLength(1);
  });

  it('carries the server error body: message and field details', async () => {
    const client = await serve((_req, res) =>
      json(res, 400, {
        statusCode: 400,
        error: 'Bad Request',
        message: 'invalid body',
        details: [{ path: 'config.number', message: 'must be E.164' }],
      }),
    );
    const error = await failure(
      client.createAlertChannel({ type: 'PHONE', name: 'p', config: { number: '+14155550123', name: 'p' } }),
    );
    expect(error).toMatchObject({ kind: 'http', status: 400, retryable: false });
    expect(error.details).toEqual([{ path: 'config.number', message: 'must be E.164' }]);
  });
});

describe('client failures', () => {
  it('times out on a server that never answers', async () => {
    fixture = await startFixture(() => {
      /* hang: never respond */
    });
    const client = createClient({
      baseUrl: fixture.url,
      apiKey: KEY,
      accountId: ACCOUNT,
      timeouts: { headersMs: 300 },
      retry: { retries: 0 },
    });
    const error = await failure(client.checkStatuses());
    expect(error.kind).toBe('timeout');
    expect(error.retryable).toBe(true);
    expectNoKey(error);
    await client.close();
  });

  it('reports a network error for a closed port, without the key', async () => {
    const client = createClient({
      baseUrl: await closedPortUrl(),
      apiKey: KEY,
      accountId: ACCOUNT,
      retry: { retries: 0 },
    });
    const error = await failure(client.checkStatuses());
    expect(error.kind).toBe('network');
    expect(error.message).toContain('GET /v1/check-statuses');
    expectNoKey(error);
  });

  it('turns malformed JSON into a decode error', async () => {
    const client = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"data": [');
    });
    const error = await failure(client.checkStatuses());
    expect(error).toMatchObject({ kind: 'decode', endpoint: 'GET /v1/check-statuses', retryable: false });
  });

  it('accepts unknown enum values of open enumerations and extra fields', async () => {
    const result = sampleResult('r1', {
      assertions: [
        {
          source: 'GRAPHQL_FIELD',
          property: 'x',
          comparison: 'MATCHES_REGEX',
          target: 'a',
          passed: false,
          actual: 'b',
        },
      ],
    });
    const client = await serve((_req, res) =>
      json(res, 200, { ...emptyResults, data: [{ ...result, futureField: { nested: true } }] }),
    );
    const page = await client.checkResults('c1');
    expect(page.data[0]!.assertions[0]!.source).toBe('GRAPHQL_FIELD');
    expect(page.data[0]!.assertions[0]!.comparison).toBe('MATCHES_REGEX');
    expect((page.data[0] as Record<string, unknown>)['futureField']).toEqual({ nested: true });
  });

  it('names the path of a schema mismatch', async () => {
    const bad = sampleStatus('c1', { status: 'on-fire' as never });
    const client = await serve((_req, res) => json(res, 200, statusPage([sampleStatus('c0'), bad], 1, 1, 2)));
    const error = await failure(client.checkStatuses());
    expect(error.kind).toBe('decode');
    expect(error.message).toContain('data[1].status');
    expect(error.message).toContain('GET /v1/check-statuses');
  });

  it('keeps the key out of errors even when the server echoes it', async () => {
    const client = await serve((req, res) =>
      json(res, 401, {
        statusCode: 401,
        error: 'Unauthorized',
        message: `unknown key ${String(req.headers['authorization'])}`,
        details: [{ path: 'authorization', message: `got ${String(req.headers['authorization'])}` }],
      }),
    );
    const error = await failure(client.checkStatuses());
    expect(error.status).toBe(401);
    expect(error.serverMessage).toContain('***');
    expectNoKey(error);
  });
});

describe('client: screenshots', () => {
  const PNG_BYTES = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

  it('fetches a result screenshot as bytes, with both auth headers, through a 503', async () => {
    const client = await serve((req, res, n) => {
      expect(req.url).toBe('/v1/check-results/pay%2Fment/r%201/screenshot');
      expect(req.headers['authorization']).toBe(`Bearer ${KEY}`);
      expect(req.headers['x-service-account']).toBe(ACCOUNT);
      expect(req.headers['accept']).toBe('image/png');
      if (n === 1) return json(res, 503, { statusCode: 503, error: 'Service Unavailable', message: 'busy' });
      res.writeHead(200, { 'content-type': 'image/png' }).end(PNG_BYTES);
    });
    expect(Buffer.from(await client.screenshot('pay/ment', 'r 1'))).toEqual(PNG_BYTES);
    expect(fixture!.seen).toHaveLength(2);
  });

  it('reports 404 as an http error with the server message, and a body that is not PNG as decode', async () => {
    const missing = await serve((_req, res) =>
      json(res, 404, { statusCode: 404, error: 'Not Found', message: 'no screenshot for result "r1"' }),
    );
    const error = await failure(missing.screenshot('c1', 'r1'));
    expect(error).toMatchObject({
      kind: 'http',
      status: 404,
      serverMessage: 'no screenshot for result "r1"',
    });
    await fixture?.close();
    const html = await serve((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>hi</h1>'),
    );
    expect(await failure(html.screenshot('c1', 'r1'))).toMatchObject({ kind: 'decode' });
  });
});
