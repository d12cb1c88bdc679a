// The service's own health with its PostgreSQL stopped under it (docs/health.md), against
// the throw-away cluster (test/helpers/postgres.ts): readiness fails, a request that needs
// the database answers 503 with Retry-After in the error body, statuses still answer from
// what the service holds, the log says it once, and all comes back by itself.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiErrorBodySchema, CheckStatusListSchema } from '../../../src/api/schemas/index.js';
import { testPostgres } from '../../helpers/postgres.js';
import { startTestService, TEST_ACCOUNT, TEST_KEY, type TestService } from '../../helpers/service.js';

const postgres = testPostgres();
const auth = { authorization: `Bearer ${TEST_KEY}`, 'x-service-account': TEST_ACCOUNT };
const lines: string[] = [];
let svc: TestService;

beforeAll(async () => {
  svc = await startTestService({ dbPath: await postgres.freshDatabase(), log: (l) => lines.push(l) });
  await svc.seed('c1', ['success', 'success', 'failed']);
}, 60_000);
afterAll(async () => {
  await svc.close();
});

const get = (path: string, headers: Record<string, string> = auth) => fetch(`${svc.url}${path}`, { headers });

describe('PostgreSQL stopped under a running service', () => {
  it('is not ready, answers 503 with Retry-After where it needs the database, and recovers', async () => {
    expect((await get('/v1/ready', {})).status).toBe(200);
    // The statuses the service holds: read once, as a console would have, before the stop.
    expect((await get('/v1/check-statuses')).status).toBe(200);
    const errors = vi.spyOn(console, 'error');
    await postgres.cluster().pause();
    try {
      const ready = await get('/v1/ready', {});
      expect(ready.status).toBe(503);
      expect(ready.headers.get('retry-after')).toBe('5');
      expect(ApiErrorBodySchema.parse(await ready.json()).message).toBe('the database is unreachable');

      const results = await get('/v1/check-results/c1?period=1h');
      expect(results.status).toBe(503);
      expect(results.headers.get('retry-after')).toBe('5');
      expect(ApiErrorBodySchema.parse(await results.json())).toEqual({
        statusCode: 503,
        error: 'Service Unavailable',
        message: 'the database is unreachable',
      });
      for (let i = 0; i < 5; i++) expect((await get('/v1/check-results/c1?period=1h')).status).toBe(503);

      // The statuses still answer, from what the service holds, and say why they may be stale.
      const list = await get('/v1/check-statuses');
      expect(list.status).toBe(200);
      const meta = CheckStatusListSchema.parse(await list.json()).meta.service;
      expect(meta?.status).toBe('degraded');
      expect(meta?.reasons.map((r) => r.code)).toContain('storage.unreachable');
      expect((await get('/v1/health', {})).status).toBe(200);

      expect(lines.filter((l) => l.startsWith('the database is unreachable'))).toHaveLength(1);
      expect(errors.mock.calls.filter((c) => String(c[0]).includes('unexpected error'))).toEqual([]);
    } finally {
      await postgres.cluster().resume();
      errors.mockRestore();
    }
    await expect.poll(async () => (await get('/v1/ready', {})).status, { timeout: 20_000 }).toBe(200);
    // A pooled connection the stop broke may fail one more request before the pool drops it.
    await expect
      .poll(async () => (await get('/v1/check-results/c1?period=1h')).status, { timeout: 10_000 })
      .toBe(200);
    const after = CheckStatusListSchema.parse(await (await get('/v1/check-statuses')).json()).meta.service;
    expect(after?.reasons.map((r) => r.code)).not.toContain('storage.unreachable');
    expect(
      lines.filter((l) => /^the database is reachable again after \d+ s \(\d+ failures?\)$/.test(l)),
    ).toHaveLength(1);
  }, 90_000);
});
