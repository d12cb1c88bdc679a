// A check's request headers that carry credentials (authorization, cookie, a
// name with token, secret, key or pass) are masked in results, as stored and as
// served, and no URL a result names keeps a user and password: every read key
// reads results, and none may read the target's credentials there (docs/security.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckResultListSchema } from '../../../src/api/schemas/index.js';
import { get } from '../../helpers/http.js';
import { sampleResult } from '../../helpers/samples.js';
import { startTestService, TEST_ACCOUNT, type TestService } from '../../helpers/service.js';

const SENT = {
  Authorization: 'Bearer target-secret',
  'proxy-authorization': 'Basic cHJveHk6cHc=',
  cookie: 'session=abc',
  'X-Api-Key': 'k-123',
  'x-auth-token': 't-456',
  'X-Client-Secret': 's-789',
  'x-passphrase': 'p-000',
  accept: 'application/json',
  'user-agent': 'checkwall',
};
const MASKED = {
  Authorization: '•••',
  'proxy-authorization': '•••',
  cookie: '•••',
  'X-Api-Key': '•••',
  'x-auth-token': '•••',
  'X-Client-Secret': '•••',
  'x-passphrase': '•••',
  accept: 'application/json',
  'user-agent': 'checkwall',
};
const request = { method: 'GET', url: 'http://127.0.0.1:9/health', headers: SENT, body: null };

// As a version before the runner left them out stored it, or an older remote runner sends it.
const withPassword = {
  request: { method: 'GET', url: 'https://ann:pa%20ss@127.0.0.1:9/health?x=1', headers: {}, body: null },
  redirects: [
    {
      url: 'https://ann:pa%20ss@127.0.0.1:9/health?x=1',
      statusCode: 302,
      timing: { firstByte: 1, total: 2 },
    },
  ],
};

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService({ checks: 3 });
});
afterAll(() => svc.close());

describe('request headers in results', () => {
  it('are stored masked when a run is recorded', async () => {
    await svc.record(
      TEST_ACCOUNT,
      sampleResult('r-new', { checkId: 'c1', startedAt: new Date().toISOString(), request }),
    );
    const stored = await svc.storage.latestResult(TEST_ACCOUNT, 'c1');
    expect(stored?.request.headers).toEqual(MASKED);
  });

  it('are served masked, a result stored before the masking too', async () => {
    await svc.storage.insertResult(
      TEST_ACCOUNT,
      sampleResult('r-old', {
        checkId: 'c2',
        startedAt: new Date(Date.now() - 60_000).toISOString(),
        request,
      }),
    );
    const { body } = await get(svc, '/v1/check-results/c2');
    const list = CheckResultListSchema.parse(body);
    expect(list.data.map((r) => r.request.headers)).toEqual([MASKED]);
    const served = JSON.stringify((await get(svc, '/v1/check-results/c1')).body);
    expect(served).toContain('X-Api-Key');
    for (const value of ['target-secret', 'cHJveHk6cHc=', 'abc', 'k-123', 't-456', 's-789', 'p-000'])
      expect(served).not.toContain(value);
  });
});

describe('URLs in results', () => {
  it('are stored and served without a user and password, a result stored before too', async () => {
    const at = (ago: number) => new Date(Date.now() - ago).toISOString();
    await svc.record(
      TEST_ACCOUNT,
      sampleResult('u-new', { checkId: 'c3', startedAt: at(0), ...withPassword }),
    );
    const stored = await svc.storage.latestResult(TEST_ACCOUNT, 'c3');
    expect(stored?.request.url).toBe('https://127.0.0.1:9/health?x=1');
    expect(stored?.redirects?.map((r) => r.url)).toEqual(['https://127.0.0.1:9/health?x=1']);
    await svc.storage.insertResult(
      TEST_ACCOUNT,
      sampleResult('u-old', { checkId: 'c3', startedAt: at(60_000), ...withPassword }),
    );
    const { body } = await get(svc, '/v1/check-results/c3');
    const list = CheckResultListSchema.parse(body);
    expect(list.data.map((r) => r.request.url)).toEqual([
      'https://127.0.0.1:9/health?x=1',
      'https://127.0.0.1:9/health?x=1',
    ]);
    expect(JSON.stringify(body)).not.toMatch(/ann|pa%20ss/);
  });
});
