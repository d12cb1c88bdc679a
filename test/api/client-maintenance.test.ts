// The client's maintenance windows (src/api/schemas/maintenance.ts) over real
// HTTP to a fixture: each route's request and its answer read through the
// schema, and that no write is sent twice unless the service refused it first.
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';
import { json, startFixture, type Fixture } from '../helpers/fixture.js';

const KEY = 'cw_test_key_maint_0123456789';
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

const window = (id: string, over: Record<string, unknown> = {}) => ({
  id,
  name: 'deploy 4.2',
  reason: 'deploy 4.2',
  createdBy: 'deployer',
  createdAt: '2026-11-27T09:00:00.000Z',
  scope: { checks: ['c/1'] },
  startsAt: '2026-11-27T09:00:00.000Z',
  endsAt: '2026-11-27T09:30:00.000Z',
  repeat: null,
  mode: 'silence',
  excludeFromAvailability: false,
  state: 'active',
  occurrence: { startsAt: '2026-11-27T09:00:00.000Z', endsAt: '2026-11-27T09:30:00.000Z' },
  source: 'api',
  endedEarlyAt: null,
  ...over,
});
const meta = { currentPage: 1, totalPages: 1, totalItems: 1, limit: 20 };
const refuse = (status: number, extra: Record<string, string> = {}) =>
  ((_req, res) =>
    json(
      res,
      status,
      { statusCode: status, error: 'Refused', message: 'not now' },
      extra,
    )) satisfies Parameters<typeof startFixture>[0];

describe('the client’s maintenance windows', () => {
  it('lists with its query, reads one, creates, patches and deletes, each through the schema', async () => {
    const { client, seen } = await serve((req, res) => {
      if (req.method === 'GET' && req.url.startsWith('/v1/maintenance-windows?'))
        return json(res, 200, { data: [window('mw 1')], meta });
      if (req.method === 'POST') return json(res, 201, window('mw-2'));
      if (req.method === 'PATCH') return json(res, 200, window('mw 1', { state: 'ended' }));
      if (req.method === 'DELETE') return json(res, 200, window('mw 1', { state: 'ended' }));
      return json(res, 200, window('mw 1'));
    });
    const list = await client.maintenanceWindows({ state: 'active', checkId: 'c/1', page: 2, limit: 50 });
    expect(list.data[0]!.id).toBe('mw 1');
    expect(seen[0]!.url).toBe('/v1/maintenance-windows?state=active&checkId=c%2F1&page=2&limit=50');
    expect((await client.maintenanceWindow('mw 1')).occurrence?.endsAt).toBe('2026-11-27T09:30:00.000Z');
    expect(seen[1]!.url).toBe('/v1/maintenance-windows/mw%201');

    const body = {
      name: 'n',
      reason: 'r',
      scope: { tags: ['web'] },
      duration: '30m',
      mode: 'pause' as const,
    };
    expect((await client.createMaintenanceWindow(body)).id).toBe('mw-2');
    expect(seen[2]).toMatchObject({ method: 'POST', url: '/v1/maintenance-windows' });
    expect(JSON.parse(seen[2]!.body)).toEqual(body);
    expect(seen[2]!.headers['authorization']).toBe(`Bearer ${KEY}`);

    expect((await client.patchMaintenanceWindow('mw 1', { endsAt: 'now' })).state).toBe('ended');
    expect(seen[3]).toMatchObject({ method: 'PATCH', url: '/v1/maintenance-windows/mw%201' });
    expect(JSON.parse(seen[3]!.body)).toEqual({ endsAt: 'now' });
    expect((await client.deleteMaintenanceWindow('mw 1'))?.state).toBe('ended');
    expect(seen[4]).toMatchObject({ method: 'DELETE', url: '/v1/maintenance-windows/mw%201' });
  });

  it('reads a 204 to a delete as null', async () => {
    const { client } = await serve((_req, res) => {
      res.writeHead(204).end();
    });
    expect(await client.deleteMaintenanceWindow('mw-1')).toBeNull();
  });

  it.each([
    [
      'create',
      (c: ReturnType<typeof createClient>) =>
        c.createMaintenanceWindow({ name: 'n', reason: 'r', scope: { checks: ['a'] }, duration: '1h' }),
    ],
    ['patch', (c: ReturnType<typeof createClient>) => c.patchMaintenanceWindow('mw-1', { endsAt: 'now' })],
    ['delete', (c: ReturnType<typeof createClient>) => c.deleteMaintenanceWindow('mw-1')],
  ])(
    'does not send a %s again after a 503 (it may have been done), but does after a 429',
    async (_what, send) => {
      const busy = await serve(refuse(503));
      const error = await send(busy.client).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).status).toBe(503);
      expect(busy.seen).toHaveLength(1);
      await fixture!.close();

      const limited = await serve((req, res) =>
        limited.seen.length === 1
          ? refuse(429, { 'retry-after': '0' })(req, res)
          : json(res, 200, window('mw-1')),
      );
      await send(limited.client);
      expect(limited.seen).toHaveLength(2);
    },
  );
});
