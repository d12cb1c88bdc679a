// Heartbeat pings over HTTP: a job pings GET or POST /v1/heartbeats/{token} without
// credentials, and each ping is a run (test/server/heartbeats/ has the rest).
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
        { id: 'job', name: 'Nightly job', type: 'heartbeat', token: TOKEN, frequency: '1h', grace: '1m' },
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

describe('heartbeat checks', () => {
  it('store one run per GET or POST ping, however the job posts, keeping its body', async () => {
    expect((await fetch(`${svc.url}/v1/heartbeats/${TOKEN}`)).status).toBe(200);
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
    const runs = await results();
    expect(runs.map((r) => [r.status, r.triggeredBy, r.checkType])).toEqual(
      Array.from({ length: 5 }, () => ['success', 'api', 'heartbeat']),
    );
    expect(runs.map((r) => r.response?.body).sort()).toEqual(['', '', 'done', 'ran in 42s', '{"ok":true}']);
  });

  it('counts a ping with a long body, keeping its end and its whole size', async () => {
    // 200 KB of log, its last line the one that matters: past the API's 64 KiB body limit.
    const log = `${'x'.repeat(200_000)}\nbackup done: 3 files, 0 errors`;
    const res = await fetch(`${svc.url}/v1/heartbeats/${TOKEN}/0`, { method: 'POST', body: log });
    expect(res.status).toBe(200);
    const run = (await results()).at(-1)!;
    expect(run.response?.size).toBe(Buffer.byteLength(log));
    expect(run.response?.body).toMatch(/\nbackup done: 3 files, 0 errors$/);
    expect(Buffer.byteLength(run.response?.body ?? '')).toBe(65_536); // maxStoredBodyBytes
  });

  it('refuses a body past 10 MiB, saying the ping was not counted and how to send what fits', async () => {
    const before = (await results()).length;
    const res = await fetch(`${svc.url}/v1/heartbeats/${TOKEN}/0`, {
      method: 'POST',
      body: Buffer.alloc(10 * 1024 * 1024 + 1, 'x'),
    });
    expect(res.status).toBe(413);
    expect(ApiErrorBodySchema.parse(await res.json()).message).toBe(
      "the ping's body is larger than 10485760 bytes, so this ping was not counted: send the end of " +
        "the job's output (tail -c 65536 job.log | curl --data-binary @- ...)",
    );
    expect(await results()).toHaveLength(before);
  });

  it('answers 404 for an unknown token, without needing credentials', async () => {
    for (const method of ['GET', 'POST']) {
      const res = await fetch(`${svc.url}/v1/heartbeats/not-a-token`, { method });
      expect(res.status).toBe(404);
      expect(ApiErrorBodySchema.parse(await res.json()).statusCode).toBe(404);
    }
  });
});
