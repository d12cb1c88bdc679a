// Heartbeat checks end to end: a job pings GET or POST /v1/heartbeats/{token}
// without credentials; the scheduler's runs succeed while pings come within
// frequency plus grace, and fail once they stop.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiErrorBodySchema,
  CheckResultListSchema,
  type CheckResult,
} from '../../../src/api/schemas/index.js';
import { accountConfig } from '../../helpers/configs.js';
import { startTestService, TEST_ACCOUNT, TEST_KEY, type TestService } from '../../helpers/service.js';

const TOKEN = 'hb-test-token-5f2a9c';
let svc: TestService;

beforeAll(async () => {
  svc = await startTestService({
    startScheduler: true,
    config: accountConfig({
      locations: [{ id: 'eu-west', name: 'Frankfurt', region: 'eu-central-1' }],
      checks: [
        { id: 'job', name: 'Nightly job', type: 'heartbeat', token: TOKEN, frequency: '1s', grace: '1s' },
      ],
    }),
  });
});
afterAll(() => svc.close());

async function results(): Promise<CheckResult[]> {
  const res = await fetch(`${svc.url}/v1/check-results/job?period=1h&limit=100&sortOrder=asc`, {
    headers: { authorization: `Bearer ${TEST_KEY}`, 'x-service-account': TEST_ACCOUNT },
  });
  return CheckResultListSchema.parse(await res.json()).data;
}
const after = async (at: number) => (await results()).filter((r) => Date.parse(r.startedAt) > at);

describe('heartbeat checks', () => {
  it('fail before the first ping, pass after GET and POST pings, and fail when pings stop', async () => {
    await expect.poll(async () => (await results()).length, { timeout: 5_000 }).toBeGreaterThan(0);
    const [first] = await results();
    expect(first).toMatchObject({
      status: 'failed',
      checkType: 'heartbeat',
      error: { name: 'MissedHeartbeat' },
    });
    expect(first!.error!.message).toBe('no ping received yet');

    const get = await fetch(`${svc.url}/v1/heartbeats/${TOKEN}`);
    expect(get.status).toBe(200);
    const pingedAt = Date.now();
    await expect
      .poll(async () => (await after(pingedAt)).map((r) => r.status), { timeout: 5_000 })
      .toContain('success');

    // However a job's tool posts: no body, a form, text, JSON.
    for (const init of [
      {},
      { body: 'ran in 42s', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
      { body: 'done' },
      { body: '{"ok":true}', headers: { 'content-type': 'application/json' } },
    ]) {
      const post = await fetch(`${svc.url}/v1/heartbeats/${TOKEN}`, { method: 'POST', ...init });
      expect(post.status).toBe(200);
    }
    const lastPing = Date.now();
    // Within 1 s + 1 s grace of the last ping a run passes; after that, it fails.
    await expect
      .poll(async () => (await after(lastPing)).find((r) => r.status === 'failed'), { timeout: 6_000 })
      .toMatchObject({ error: { name: 'MissedHeartbeat', message: expect.stringContaining('last ping') } });
    const missed = (await after(lastPing)).find((r) => r.status === 'failed')!;
    // lastPing is taken just after the service stored the ping: allow the few ms between.
    expect(Date.parse(missed.startedAt) - lastPing).toBeGreaterThan(1_950);
    expect((await after(lastPing))[0]!.status).toBe('success');
  });

  it('answers a ping body over the limit with 413', async () => {
    const res = await fetch(`${svc.url}/v1/heartbeats/${TOKEN}`, {
      method: 'POST',
      body: 'x'.repeat(200_000),
    });
    expect(res.status).toBe(413);
    expect(ApiErrorBodySchema.parse(await res.json()).statusCode).toBe(413);
  });

  it('answers 404 for an unknown token, without needing credentials', async () => {
    for (const method of ['GET', 'POST']) {
      const res = await fetch(`${svc.url}/v1/heartbeats/not-a-token`, { method });
      expect(res.status).toBe(404);
      expect(ApiErrorBodySchema.parse(await res.json()).statusCode).toBe(404);
    }
  });
});
