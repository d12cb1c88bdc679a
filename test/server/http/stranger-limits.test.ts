// Issue 31: what strangers may cost. Failed authentications and unknown heartbeat
// tokens are limited per client address (behind a proxy, X-Forwarded-For's), public
// reads too and from a short cache; requests with valid credentials per key only.
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { request } from 'undici';
import { ApiErrorBodySchema } from '../../../src/api/schemas/index.js';
import { configWarnings } from '../../../src/server/config/load.js';
import { ServiceConfigSchema, type ServiceConfig } from '../../../src/server/config/schema.js';
import { createHolds } from '../../../src/server/http/rate-limits.js';
import { createFakeClock } from '../../helpers/fake-clock.js';
import {
  startTestService,
  TEST_ACCOUNT,
  TEST_KEY,
  testConfig,
  type TestService,
} from '../../helpers/service.js';

const SECOND_KEY = 'cw_test_second_console_0123456789';
const TOKEN = 'hb-stranger-test-token-5f2a9c';

function config(http: Record<string, unknown>, change: (c: ServiceConfig) => void = () => {}): ServiceConfig {
  const base = testConfig(3);
  const [first, ...rest] = base.accounts;
  const next = {
    ...base,
    http,
    accounts: [
      {
        ...first!,
        apiKeys: [TEST_KEY, SECOND_KEY],
        checks: [
          ...first!.checks,
          {
            id: 'job',
            name: 'Job',
            type: 'heartbeat',
            token: TOKEN,
            frequency: '1h',
            locations: ['eu-west'],
          },
        ],
      },
      ...rest,
    ],
  };
  change(next as ServiceConfig);
  return ServiceConfigSchema.parse(next);
}

const as = (key: string, extra: Record<string, string> = {}) => ({
  authorization: `Bearer ${key}`,
  'x-service-account': TEST_ACCOUNT,
  ...extra,
});
const statuses = (svc: TestService, headers: Record<string, string>) =>
  request(`${svc.url}/v1/check-statuses?limit=1`, { headers });

async function answer(res: Awaited<ReturnType<typeof request>>) {
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, text };
}

describe('failed authentications', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({
      config: config({ rateLimit: { failedAuthPerMinute: 5, holdRefusedSeconds: 0 } }),
    });
  });
  afterAll(() => svc.close());

  it('are 401 up to the budget of an address, then 429 with Retry-After in the error body; a valid key still passes', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 7; i++)
      codes.push((await answer(await statuses(svc, as('cw_wrong_0123456789abc')))).status);
    expect(codes).toEqual([401, 401, 401, 401, 401, 429, 429]);
    const limited = await answer(await statuses(svc, as('cw_wrong_0123456789abc')));
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(ApiErrorBodySchema.parse(JSON.parse(limited.text)).statusCode).toBe(429);
    // Holding off: answered at once, and the connection stays open for the next request.
    expect(limited.headers.connection).not.toBe('close');
    // Credentials that are right are never limited by the address they come from.
    expect((await answer(await statuses(svc, as(TEST_KEY)))).status).toBe(200);
    // An unknown heartbeat token spends the same budget (it is spent: 429, not 404).
    expect((await answer(await request(`${svc.url}/v1/heartbeats/not-a-token-at-all`))).status).toBe(429);
    expect((await answer(await request(`${svc.url}/v1/heartbeats/${TOKEN}`))).status).toBe(200);
  });
});

describe('a request past its budget', () => {
  it('is held on its connection before its 429, while a valid key is answered at once', async () => {
    const svc = await startTestService({
      config: config({ rateLimit: { failedAuthPerMinute: 1, holdRefusedSeconds: 1 } }),
    });
    onTestFinished(() => svc.close());
    const wrong = as('cw_wrong_0123456789abc');
    expect((await answer(await statuses(svc, wrong))).status).toBe(401);
    let answered = false;
    const held = statuses(svc, wrong).then(async (res) => {
      answered = true;
      return answer(res);
    });
    // Others are served meanwhile: holding costs a timer, not the event loop.
    for (let i = 0; i < 3; i++) expect((await answer(await statuses(svc, as(TEST_KEY)))).status).toBe(200);
    expect(answered).toBe(false);
    const refused = await held;
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.headers.connection).not.toBe('close');
  });

  it('is answered at once, closing its connection, when the holds of its address are full', async () => {
    const clock = createFakeClock();
    const holds = createHolds(clock, { perAddress: 2, total: 3 });
    const waits = [holds.hold('a', 5_000), holds.hold('a', 5_000)];
    expect(await holds.hold('a', 5_000)).toBe(false);
    const other = holds.hold('b', 5_000);
    // Three held in all: the total is full for every address.
    expect(await holds.hold('c', 5_000)).toBe(false);
    expect(holds.size()).toBe(3);
    await clock.advance(5_000);
    expect(await Promise.all([...waits, other])).toEqual([true, true, true]);
    expect(holds.size()).toBe(0);
    // Holding off (0 s): answered at once, its connection kept.
    expect(await holds.hold('a', 0)).toBe(true);
  });
});

describe('unknown heartbeat tokens', () => {
  it('are 404 up to the failed-authentication budget of an address, then 429', async () => {
    const svc = await startTestService({
      config: config({ rateLimit: { failedAuthPerMinute: 3, holdRefusedSeconds: 0 } }),
    });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 5; i++)
        codes.push(
          (await answer(await request(`${svc.url}/v1/heartbeats/unknown-token-${i}`, { method: 'POST' })))
            .status,
        );
      expect(codes).toEqual([404, 404, 404, 429, 429]);
    } finally {
      await svc.close();
    }
  });
});

describe('behind a proxy (http.trustProxy)', () => {
  it('limits each X-Forwarded-For address on its own; without trustProxy the header changes nothing', async () => {
    for (const trustProxy of [true, false]) {
      const svc = await startTestService({
        config: config({ trustProxy, rateLimit: { failedAuthPerMinute: 2, holdRefusedSeconds: 0 } }),
      });
      try {
        const from = (ip: string) => as('cw_wrong_0123456789abc', { 'x-forwarded-for': ip });
        for (let i = 0; i < 3; i++) await answer(await statuses(svc, from('203.0.113.7')));
        expect((await answer(await statuses(svc, from('203.0.113.7')))).status).toBe(429);
        expect((await answer(await statuses(svc, from('198.51.100.9')))).status).toBe(trustProxy ? 401 : 429);
      } finally {
        await svc.close();
      }
    }
  });
});

describe('requests with valid credentials', () => {
  it('are limited per key: one console flooding does not starve another of the same account', async () => {
    const svc = await startTestService({ config: config({}), rateLimit: { perSecond: 1, burst: 5 } });
    try {
      const flood = await Promise.all(
        Array.from({ length: 20 }, async () => (await answer(await statuses(svc, as(TEST_KEY)))).status),
      );
      expect(flood.filter((s) => s === 429).length).toBeGreaterThan(0);
      const other = await Promise.all(
        Array.from({ length: 3 }, async () => (await answer(await statuses(svc, as(SECOND_KEY)))).status),
      );
      expect(other).toEqual([200, 200, 200]);
    } finally {
      await svc.close();
    }
  });
});

describe('public dashboard reads', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({
      config: config({ rateLimit: { publicReadsPerSecond: 3, holdRefusedSeconds: 0 } }),
    });
  });
  afterAll(() => svc.close());

  it('are limited per address a second, with 429 and Retry-After in the error body', async () => {
    const all = await Promise.all(
      Array.from({ length: 10 }, async () => answer(await request(`${svc.url}/v1/public/dashboards/status`))),
    );
    expect(all.filter((a) => a.status === 200)).toHaveLength(3);
    const limited = all.find((a) => a.status === 429)!;
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(ApiErrorBodySchema.parse(JSON.parse(limited.text)).statusCode).toBe(429);
  });

  it('share their limit with the health probes, which take no credentials (docs/health.md)', async () => {
    const svc = await startTestService({
      config: config({ rateLimit: { publicReadsPerSecond: 3, holdRefusedSeconds: 0 } }),
    });
    onTestFinished(() => svc.close());
    const all = await Promise.all(
      ['/v1/health', '/v1/ready', '/v1/health', '/v1/ready', '/v1/health'].map(async (path) =>
        answer(await request(`${svc.url}${path}`)),
      ),
    );
    expect(all.filter((a) => a.status === 200)).toHaveLength(3);
    expect(all.filter((a) => a.status === 429)).toHaveLength(2);
  });

  it('are answered from a short cache: the same body and ETag, and 304 for it', async () => {
    const svc = await startTestService({ config: config({}) });
    onTestFinished(() => svc.close());
    const first = await answer(await request(`${svc.url}/v1/public/dashboards/status`));
    const second = await answer(await request(`${svc.url}/v1/public/dashboards/status`));
    expect(first.headers.etag).toBeDefined();
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(second.text).toBe(first.text);
    const cached = await request(`${svc.url}/v1/public/dashboards/status`, {
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(cached.statusCode).toBe(304);
    await cached.body.dump();
  });
});

describe('heartbeat tokens', () => {
  it('shorter than 16 characters are accepted with one warning naming the check, never the token', () => {
    const short = config({}, (c) => {
      c.accounts[0]!.checks.push({
        ...c.accounts[0]!.checks.at(-1)!,
        id: 'short',
        token: 'short-tk',
      });
    });
    const warnings = configWarnings(short);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/check "short"/);
    expect(warnings[0]).not.toContain('short-tk');
    expect(configWarnings(config({}))).toEqual([]);
  });
});
