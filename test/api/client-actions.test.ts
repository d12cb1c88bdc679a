// The client's actions (src/api/schemas/actions.ts) over real HTTP to a fixture:
// each method's request, its answer read through the schema, and which of them
// are sent again after a failure.
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';
import { json, startFixture, type Fixture } from '../helpers/fixture.js';
import { sampleStatus } from '../helpers/samples.js';

const KEY = 'cw_test_key_actions_0123456789';
const ACCOUNT = '6f1c1a2e-5b7d-4c59-9a43-2d1f0e7b8c91';
const FAST = { retries: 2, baseDelayMs: 5, maxDelayMs: 20, maxRetryAfterMs: 5_000 };

let fixture: Fixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

async function serve(handler: Parameters<typeof startFixture>[0]) {
  fixture = await startFixture(handler);
  return {
    client: createClient({ baseUrl: fixture.url, apiKey: KEY, accountId: ACCOUNT, retry: FAST }),
    seen: fixture.seen,
  };
}

const run = (runId: string, state = 'queued') => ({
  runId,
  checkId: 'c/1',
  location: 'eu-west',
  state,
  triggeredBy: 'api',
  queuedAt: '2026-11-27T09:00:00.000Z',
});

const refuse = (status: number, extra: Record<string, string> = {}) =>
  ((_req, res) =>
    json(
      res,
      status,
      { statusCode: status, error: 'Refused', message: 'not now' },
      extra,
    )) satisfies Parameters<typeof startFixture>[0];

describe('the client’s actions', () => {
  it('reads who the key is', async () => {
    const { client, seen } = await serve((_req, res) =>
      json(res, 200, { accountId: ACCOUNT, keyName: 'deploy', role: 'operate' }),
    );
    expect(await client.me()).toEqual({ accountId: ACCOUNT, keyName: 'deploy', role: 'operate' });
    expect(seen[0]).toMatchObject({ method: 'GET', url: '/v1/me' });
    expect(seen[0]!.headers['authorization']).toBe(`Bearer ${KEY}`);
  });

  it('creates runs with the body as given, and reads many in one request or one alone', async () => {
    const { client, seen } = await serve((req, res) =>
      req.method === 'POST'
        ? json(res, 202, { data: [run('r1'), run('r2')] })
        : req.url.startsWith('/v1/check-runs?')
          ? json(res, 200, { data: [run('r1', 'running'), run('r2', 'done')] })
          : json(res, 200, run('r 1', 'skipped')),
    );
    const created = await client.createCheckRuns({ checkIds: ['c/1'], locations: ['eu-west'] });
    expect(created.data.map((r) => r.runId)).toEqual(['r1', 'r2']);
    expect(JSON.parse(seen[0]!.body)).toEqual({ checkIds: ['c/1'], locations: ['eu-west'] });
    expect(seen[0]!.headers['content-type']).toBe('application/json');
    const read = await client.checkRuns(['r1', 'r2']);
    expect(read.data.map((r) => r.state)).toEqual(['running', 'done']);
    expect(seen[1]!.url).toBe('/v1/check-runs?ids=r1%2Cr2');
    expect((await client.checkRun('r 1')).state).toBe('skipped');
    expect(seen[2]!.url).toBe('/v1/check-runs/r%201');
  });

  it('refuses a batch read of no runs or of more than the service reads at once, without a request', async () => {
    const { client, seen } = await serve(refuse(500));
    await expect(client.checkRuns([])).rejects.toThrow(RangeError);
    await expect(client.checkRuns(Array.from({ length: 101 }, (_, i) => `r${i}`))).rejects.toThrow(
      'checkRuns reads 1 to 100 runs at once, not 101',
    );
    expect(seen).toEqual([]);
  });

  it('pauses and resumes, answering the check’s status, and tries again after a 503 (both are idempotent)', async () => {
    const { client, seen } = await serve((req, res) =>
      seen.length === 1
        ? json(res, 503, { statusCode: 503, error: 'Unavailable', message: 'busy' })
        : json(res, 200, {
            data: sampleStatus(
              'c/1',
              req.url.endsWith('/pause')
                ? { paused: { by: 'deploy', since: '2026-11-27T09:00:00.000Z' } }
                : {},
            ),
          }),
    );
    expect((await client.pauseCheck('c/1')).data.paused).toEqual({
      by: 'deploy',
      since: '2026-11-27T09:00:00.000Z',
    });
    expect(seen.map((r) => `${r.method} ${r.url}`)).toEqual([
      'POST /v1/checks/c%2F1/pause',
      'POST /v1/checks/c%2F1/pause',
    ]);
    expect((await client.resumeCheck('c/1')).data.paused).toBeUndefined();
    expect(seen[2]!.url).toBe('/v1/checks/c%2F1/resume');
  });

  it('sends the request that creates runs again only after a 429, never after a 503', async () => {
    const busy = await serve(refuse(503));
    const error = await busy.client.createCheckRuns({ tags: ['deploy'] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(503);
    expect((error as ApiError).retryable).toBe(false);
    expect(busy.seen).toHaveLength(1);
    await fixture!.close();

    const limited = await serve((req, res) =>
      limited.seen.length === 1
        ? refuse(429, { 'retry-after': '0' })(req, res)
        : json(res, 202, { data: [run('r1')] }),
    );
    expect((await limited.client.createCheckRuns({ tags: ['deploy'] })).data).toHaveLength(1);
    expect(limited.seen.filter((r) => r.method === 'POST')).toHaveLength(2);
  });

  it('reads the audit trail with its query', async () => {
    const { client, seen } = await serve((_req, res) =>
      json(res, 200, {
        data: [
          {
            id: 'a1',
            at: '2026-11-27T09:00:00.000Z',
            keyName: 'deploy',
            action: 'pause',
            checkId: 'c1',
            details: {},
          },
        ],
        meta: { currentPage: 1, totalPages: 1, totalItems: 1, limit: 20 },
      }),
    );
    const page = await client.auditEvents({ checkId: 'c1', action: 'pause', limit: 20 });
    expect(page.data[0]!.action).toBe('pause');
    expect(seen[0]!.url).toBe('/v1/audit-events?checkId=c1&action=pause&limit=20');
  });

  it('carries the service’s message in the error of a refused action', async () => {
    const { client } = await serve((_req, res) =>
      json(res, 403, { statusCode: 403, error: 'Forbidden', message: 'this key may only read (role read)' }),
    );
    const error = await client.pauseCheck('c1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).serverMessage).toBe('this key may only read (role read)');
    expect((error as ApiError).message).toBe(
      'POST /v1/checks/c1/pause answered 403: this key may only read (role read)',
    );
  });
});
