// Issue 31: credentials are judged from the headers, before a body is read, and
// every refusal says the same thing whatever was wrong with the credentials.
import { createHash } from 'node:crypto';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiErrorBodySchema, CheckStatusListSchema } from '../../../src/api/schemas/index.js';
import { ServiceConfigSchema } from '../../../src/server/config/schema.js';
import { rawRequest } from '../../helpers/raw-http.js';
import {
  OTHER_KEY,
  startTestService,
  TEST_ACCOUNT,
  TEST_KEY,
  testConfig,
  type TestService,
} from '../../helpers/service.js';

const RUNNER_TOKEN = 'runner-token-far-0123456789abcdef';
const EIGHT_MB = 8 * 1024 * 1024;

function remoteConfig() {
  const config = testConfig(3);
  const [first, ...rest] = config.accounts;
  return ServiceConfigSchema.parse({
    ...config,
    accounts: [
      {
        ...first!,
        locations: [
          ...first!.locations,
          { id: 'far', name: 'Far away', region: 'elsewhere', remote: true, runnerToken: RUNNER_TOKEN },
        ],
      },
      ...rest,
    ],
  });
}

let svc: TestService;
const lines: string[] = [];
beforeAll(async () => {
  svc = await startTestService({ config: remoteConfig(), log: (line) => lines.push(line) });
});
afterAll(() => svc.close());

const announcing = (path: string, headers: string[]) =>
  [
    `POST ${path} HTTP/1.1`,
    `Host: ${new URL(svc.url).host}`,
    'Content-Type: application/json',
    `Content-Length: ${EIGHT_MB}`,
    ...headers,
  ].join('\r\n');

describe('a request with wrong credentials', () => {
  it.each([
    ['/v1/runner/results', ['Authorization: Bearer not-the-runner-token-42']],
    ['/v1/runner/claim', []],
    ['/v1/runner/runs/r1/result', ['Authorization: Bearer not-the-runner-token-42']],
    [
      '/v1/alert-channels',
      [`X-Service-Account: ${TEST_ACCOUNT}`, 'Authorization: Bearer cw_nobody_0123456789'],
    ],
    ['/v1/alert-channels', []],
  ])(
    'to %s %j is answered 401 before its 8 MB body is sent, and the connection closes',
    async (path, headers) => {
      const answer = await rawRequest(svc.url, announcing(path, headers));
      expect(answer.status).toBe(401);
      expect(ApiErrorBodySchema.parse(JSON.parse(answer.body)).statusCode).toBe(401);
      expect(answer.headers['www-authenticate']).toBe('Bearer');
      await answer.closed;
    },
  );

  it('costs the service no memory for the bodies it refuses (five 8 MB posts at once)', async () => {
    const body = Buffer.alloc(EIGHT_MB, 'x');
    body.write('{"results":[],"pad":"', 0);
    body.write('"}', EIGHT_MB - 2);
    const post = () =>
      new Promise<number>((resolve) => {
        const { hostname, port } = new URL(svc.url);
        const socket = connect(Number(port), hostname);
        let status = 0;
        socket.on('data', (chunk: Buffer) => (status ||= Number(chunk.toString('latin1').split(' ')[1])));
        socket.on('error', () => {});
        socket.once('close', () => resolve(status));
        socket.write(
          `${announcing('/v1/runner/results', ['Authorization: Bearer not-the-runner-token-42'])}\r\n\r\n`,
        );
        socket.end(body);
      });
    const before = process.memoryUsage().rss;
    const statuses = await Promise.all(Array.from({ length: 5 }, post));
    const grown = process.memoryUsage().rss - before;
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
    expect(grown).toBeLessThan(50 * 1024 * 1024);
  });
});

describe('the runner endpoints', () => {
  it('are not there (404 in the error body) on a service without remote locations', async () => {
    const plain = await startTestService();
    try {
      const res = await fetch(`${plain.url}/v1/runner/claim`, {
        method: 'POST',
        headers: { authorization: `Bearer ${RUNNER_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ runnerId: 'r', waitSeconds: 0 }),
      });
      expect(res.status).toBe(404);
      expect(ApiErrorBodySchema.parse(await res.json()).statusCode).toBe(404);
    } finally {
      await plain.close();
    }
  });

  it('answer the same 401 for a missing and a wrong token, and log a refusal without the token or its digest', async () => {
    const claim = (headers: Record<string, string>) =>
      fetch(`${svc.url}/v1/runner/claim`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ runnerId: 'r', waitSeconds: 0 }),
      });
    const bad = 'not-the-runner-token-77';
    const messages = new Set<string>();
    const tries: Array<Record<string, string>> = [
      {},
      { authorization: `Bearer ${bad}` },
      { authorization: `Bearer ${TEST_KEY}` },
    ];
    for (const headers of tries) {
      const res = await claim(headers);
      expect(res.status).toBe(401);
      messages.add(ApiErrorBodySchema.parse(await res.json()).message);
    }
    expect(messages.size).toBe(1);
    expect((await claim({ authorization: `Bearer ${RUNNER_TOKEN}` })).status).toBe(200);
    const log = lines.join('\n');
    expect(log).toMatch(/refused a runner token/);
    const digest = createHash('sha256').update(bad).digest('hex');
    expect(log).not.toContain(bad);
    expect(log).not.toContain(digest.slice(0, 8));
  });
});

describe('the account endpoints', () => {
  it('answer one 401 message whatever was wrong with the credentials', async () => {
    const cases: Array<Record<string, string>> = [
      {},
      { 'x-service-account': TEST_ACCOUNT },
      { authorization: `Bearer ${TEST_KEY}` },
      { authorization: 'Bearer cw_nobody_0123456789', 'x-service-account': TEST_ACCOUNT },
      { authorization: 'Bearer cw_nobody_0123456789' },
      { authorization: `Basic ${TEST_KEY}`, 'x-service-account': TEST_ACCOUNT },
    ];
    const messages = new Set<string>();
    for (const headers of cases) {
      const res = await fetch(`${svc.url}/v1/check-statuses`, { headers });
      expect(res.status).toBe(401);
      messages.add(ApiErrorBodySchema.parse(await res.json()).message);
    }
    expect([...messages]).toHaveLength(1);
    // A key of another account naming ours is still told apart: it is a valid key (403).
    const theirs = await fetch(`${svc.url}/v1/check-statuses`, {
      headers: { authorization: `Bearer ${OTHER_KEY}`, 'x-service-account': TEST_ACCOUNT },
    });
    expect(theirs.status).toBe(403);
  });

  it('take the account id in X-Service-Account in any case', async () => {
    const res = await fetch(`${svc.url}/v1/check-statuses`, {
      headers: { authorization: `Bearer ${TEST_KEY}`, 'x-service-account': TEST_ACCOUNT.toUpperCase() },
    });
    expect(res.status).toBe(200);
    expect(CheckStatusListSchema.parse(await res.json()).data).toHaveLength(3);
  });
});
