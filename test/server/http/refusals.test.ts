// Issue 31: every refusal, fastify's and node's included, in the documented error
// body with a message that says what was wrong; one length limit for path values;
// and, when http.allowedHosts is set, only those hosts answered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { ApiErrorBodySchema } from '../../../src/api/schemas/index.js';
import { ConfigError, validateConfig } from '../../../src/server/config/load.js';
import { ServiceConfigSchema, type ServiceConfig } from '../../../src/server/config/schema.js';
import { MAX_PATH_PARAM_LENGTH } from '../../../src/domain/path-limits.js';
import { rawRequest } from '../../helpers/raw-http.js';
import {
  startTestService,
  TEST_ACCOUNT,
  TEST_KEY,
  testConfig,
  type TestService,
} from '../../helpers/service.js';

const LONG_TOKEN = 'hb'.repeat(60);
const LONG_SLUG = 'status-'.repeat(17).slice(0, 120);

function config(
  http: Record<string, unknown> = {},
  change: (raw: Record<string, unknown>) => void = () => {},
) {
  const base = testConfig(3);
  const [first, ...rest] = base.accounts;
  const raw: Record<string, unknown> = {
    ...base,
    http,
    accounts: [
      {
        ...first!,
        checks: [
          ...first!.checks,
          {
            id: 'job',
            name: 'Job',
            type: 'heartbeat',
            token: LONG_TOKEN,
            frequency: '1h',
            locations: ['eu-west'],
          },
        ],
        dashboards: [
          ...first!.dashboards,
          {
            id: 'long',
            name: 'Long',
            customUrl: LONG_SLUG,
            customDomain: 'board.example.org',
            isPrivate: false,
            checkIds: ['c1'],
          },
        ],
      },
      ...rest,
    ],
  };
  change(raw);
  return ServiceConfigSchema.parse(raw) satisfies ServiceConfig;
}

const auth = { authorization: `Bearer ${TEST_KEY}`, 'x-service-account': TEST_ACCOUNT };

async function errorOf(res: Awaited<ReturnType<typeof request>>) {
  return { status: res.statusCode, body: ApiErrorBodySchema.parse(await res.body.json()) };
}

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService({ config: config() });
});
afterAll(() => svc.close());

describe('path values', () => {
  it('of 120 characters reach their heartbeat and public dashboard', async () => {
    expect((await request(`${svc.url}/v1/heartbeats/${LONG_TOKEN}`)).statusCode).toBe(200);
    const board = await request(`${svc.url}/v1/public/dashboards/${LONG_SLUG}`);
    expect(board.statusCode).toBe(200);
    await board.body.dump();
  });

  it.each([
    ['a check id of 250 characters', `/v1/check-results/${'c'.repeat(250)}`],
    ['a check id of 700 characters', `/v1/check-results/${'c'.repeat(700)}`],
    ['a token of 700 characters', `/v1/heartbeats/${'t'.repeat(700)}`],
    ['a slug of 700 characters', `/v1/public/dashboards/${'s'.repeat(700)}`],
  ])(
    'longer than any configured value can be (%s) are unknown: 404 in the error body',
    async (_what, path) => {
      const { status, body } = await errorOf(await request(svc.url + path, { headers: auth }));
      expect(status).toBe(404);
      expect(body).toMatchObject({ statusCode: 404, error: 'Not Found' });
    },
  );

  it(`longer than ${MAX_PATH_PARAM_LENGTH} characters are refused at config load`, () => {
    const tooLong = (at: 'token' | 'customUrl') =>
      config({}, (raw) => {
        const account = (raw['accounts'] as Array<Record<string, Array<Record<string, unknown>>>>)[0]!;
        if (at === 'token') account['checks']!.at(-1)!['token'] = 'x'.repeat(MAX_PATH_PARAM_LENGTH + 1);
        else account['dashboards']!.at(-1)!['customUrl'] = 'x'.repeat(MAX_PATH_PARAM_LENGTH + 1);
      });
    expect(() => tooLong('token')).toThrow(/at most 200 characters/);
    expect(() => tooLong('customUrl')).toThrow(/at most 200 characters/);
    const raw = JSON.parse(JSON.stringify(config())) as {
      accounts: Array<{ checks: Array<{ token?: string }> }>;
    };
    raw.accounts[0]!.checks.at(-1)!.token = 'y'.repeat(MAX_PATH_PARAM_LENGTH + 1);
    expect(() => validateConfig(raw, 'test.yaml')).toThrow(ConfigError);
  });
});

describe("fastify's and node's refusals", () => {
  const post = (body: string) =>
    request(`${svc.url}/v1/alert-channels`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body,
    });

  it('a body that is not JSON: 400 saying so', async () => {
    const { status, body } = await errorOf(await post('{"type": "EMAIL",'));
    expect(status).toBe(400);
    expect(body.message).toMatch(/^the body is not valid JSON/);
  });

  it.each([
    ['__proto__', '{"type":"EMAIL","name":"x","config":{"address":"a@b.co"},"__proto__":{"admin":true}}'],
    [
      'constructor.prototype',
      '{"type":"EMAIL","name":"x","config":{"constructor":{"prototype":{"admin":true}}}}',
    ],
  ])('a body with a %s key: 400 naming the key', async (key, text) => {
    const { status, body } = await errorOf(await post(text));
    expect(status).toBe(400);
    expect(body.message).toContain(`"${key}" key`);
  });

  it('a query parameter given twice: 400 naming it', async () => {
    const res = await request(`${svc.url}/v1/check-statuses?status=failing&status=passing`, {
      headers: auth,
    });
    const { status, body } = await errorOf(res);
    expect(status).toBe(400);
    expect(body.details).toEqual([{ path: 'status', message: 'is given more than once: give it once' }]);
    expect(body.message).toContain('status: is given more than once');
  });

  it('a query parameter without a name: 400 saying so, not naming the body', async () => {
    const { status, body } = await errorOf(
      await request(`${svc.url}/v1/check-statuses?=failing`, { headers: auth }),
    );
    expect(status).toBe(400);
    expect(body.message).toMatch(
      /^invalid query: \(a parameter without a name\): is no parameter of this route/,
    );
  });

  it('a URL that is not valid percent-encoding: 400 in the error body', async () => {
    const { status, body } = await errorOf(await request(`${svc.url}/v1/heartbeats/%zz`));
    expect(status).toBe(400);
    expect(body.message).toMatch(/URL is not valid/);
  });

  it('headers larger than node accepts: 431 in the error body, then the connection closes', async () => {
    const answer = await rawRequest(
      svc.url,
      `GET /v1/check-statuses HTTP/1.1\r\nHost: x\r\nX-Padding: ${'p'.repeat(64 * 1024)}`,
    );
    expect(answer.status).toBe(431);
    expect(ApiErrorBodySchema.parse(JSON.parse(answer.body))).toMatchObject({
      statusCode: 431,
      error: 'Request Header Fields Too Large',
      message: 'the request line and headers are larger than the service accepts',
    });
    await answer.closed;
  });
});

describe('http.allowedHosts', () => {
  let guarded: TestService;
  beforeAll(async () => {
    guarded = await startTestService({
      config: config({ allowedHosts: ['status.example.com', 'localhost:8080'] }),
    });
  });
  afterAll(() => guarded.close());

  const asHost = (host: string, path = '/v1/check-statuses') =>
    request(guarded.url + path, { headers: { ...auth, host } });

  it.each(['evil.example.net', 'localhost:9999', '127.0.0.1'])(
    'refuses Host %s with 421 in the error body',
    async (host) => {
      const { status, body } = await errorOf(await asHost(host));
      expect(status).toBe(421);
      expect(body.error).toBe('Misdirected Request');
    },
  );

  it.each(['status.example.com', 'STATUS.example.com:443', 'localhost:8080'])(
    'answers Host %s (listed)',
    async (host) => {
      const res = await asHost(host);
      expect(res.statusCode).toBe(200);
      await res.body.dump();
    },
  );

  it('answers a dashboard’s customDomain with its status page, and never /v1 there', async () => {
    const page = await asHost('board.example.org', '/');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    await page.body.dump();
    const api = await asHost('board.example.org');
    expect(api.statusCode).toBe(404);
    await api.body.dump();
  });

  it('answers any Host when it is not set', async () => {
    const res = await request(`${svc.url}/v1/check-statuses`, {
      headers: { ...auth, host: 'evil.example.net' },
    });
    expect(res.statusCode).toBe(200);
    await res.body.dump();
  });
});
