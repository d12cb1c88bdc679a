// Every endpoint but the public dashboard and heartbeat pings needs both auth
// headers; a key of another account is 403; no account sees another's data.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AlertChannelListSchema,
  ApiErrorBodySchema,
  CheckStatusListSchema,
  DashboardListSchema,
} from '../../../src/api/schemas/index.js';
import {
  OTHER_ACCOUNT,
  OTHER_KEY,
  startTestService,
  TEST_ACCOUNT,
  TEST_KEY,
  type TestService,
} from '../../helpers/service.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService({ checks: 3 });
  await svc.seed('c1', ['success', 'failed']);
  await svc.seed('secret', ['success'], { accountId: OTHER_ACCOUNT });
});
afterAll(() => svc.close());

const ours = { authorization: `Bearer ${TEST_KEY}`, 'x-service-account': TEST_ACCOUNT };
const theirs = { authorization: `Bearer ${OTHER_KEY}`, 'x-service-account': OTHER_ACCOUNT };

async function call(method: string, path: string, headers: Record<string, string>) {
  const body =
    method === 'POST'
      ? JSON.stringify({ type: 'EMAIL', name: 'auth probe', config: { address: 'a@b.co' } })
      : undefined;
  const res = await fetch(svc.url + path, {
    method,
    headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
    body,
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as unknown };
}

const ENDPOINTS: Array<[string, string]> = [
  ['GET', '/v1/check-statuses'],
  ['GET', '/v1/check-results/c1'],
  ['GET', '/v1/dashboards'],
  ['GET', '/v1/alert-channels'],
  ['POST', '/v1/alert-channels'],
  ['GET', '/v1/analytics/metrics/api'],
];

describe.each(ENDPOINTS)('%s %s', (method, path) => {
  it.each<[string, Record<string, string>, number]>([
    ['no headers', {}, 401],
    ['only the account', { 'x-service-account': TEST_ACCOUNT }, 401],
    ['only the key', { authorization: `Bearer ${TEST_KEY}` }, 401],
    [
      'an unknown key',
      { authorization: 'Bearer cw_nobody_0123456789', 'x-service-account': TEST_ACCOUNT },
      401,
    ],
    ['not a bearer token', { authorization: `Basic ${TEST_KEY}`, 'x-service-account': TEST_ACCOUNT }, 401],
    [
      'another account’s key',
      { authorization: `Bearer ${OTHER_KEY}`, 'x-service-account': TEST_ACCOUNT },
      403,
    ],
    [
      'our key for another account',
      { authorization: `Bearer ${TEST_KEY}`, 'x-service-account': OTHER_ACCOUNT },
      403,
    ],
  ])('%s: %i with the error body', async (_name, headers, status) => {
    const res = await call(method, path, headers);
    expect(res.status).toBe(status);
    expect(ApiErrorBodySchema.parse(res.body).statusCode).toBe(status);
    if (status === 401 && headers.authorization === undefined)
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
  });
});

describe('isolation', () => {
  it('shows each account only its own checks, results, dashboards and channels', async () => {
    await call('POST', '/v1/alert-channels', ours);
    const statuses = CheckStatusListSchema.parse((await call('GET', '/v1/check-statuses', theirs)).body);
    expect(statuses.data.map((s) => s.checkId)).toEqual(['secret']);
    expect(statuses.meta.summary?.totalChecks).toBe(1);
    expect((await call('GET', '/v1/check-results/c1', theirs)).status).toBe(404);
    expect((await call('GET', '/v1/check-results/secret', ours)).status).toBe(404);
    expect((await call('GET', '/v1/check-results/secret', theirs)).status).toBe(200);
    expect(DashboardListSchema.parse((await call('GET', '/v1/dashboards', theirs)).body).data).toEqual([]);
    expect(AlertChannelListSchema.parse((await call('GET', '/v1/alert-channels', theirs)).body).data).toEqual(
      [],
    );
    expect(
      AlertChannelListSchema.parse((await call('GET', '/v1/alert-channels', ours)).body).data.map(
        (c) => c.name,
      ),
    ).toContain('auth probe');
  });

  it('reads a public dashboard with no credentials, or with any', async () => {
    expect((await call('GET', '/v1/public/dashboards/status', {})).status).toBe(200);
    expect((await call('GET', '/v1/public/dashboards/status', theirs)).status).toBe(200);
    expect((await call('GET', '/v1/public/dashboards/nothing', {})).status).toBe(404);
  });
});
