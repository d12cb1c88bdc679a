// The poll worker in a real worker thread (the built dist/: run `npm run build`
// first), against the real service and a fixture for the faults: what changed
// comes back, and errors come back as the same ApiError the poller backs off on.
import { existsSync } from 'node:fs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/errors.js';
import { spawnStatusesWorker, type StatusesWorker } from '../../src/store/poll-worker/spawn.js';
import { closedPortUrl, json, startFixture, type Fixture } from '../helpers/fixture.js';
import { startTestService, type TestService } from '../helpers/service.js';

const BUILT = new URL('../../dist/store/poll-worker/poll-worker.js', import.meta.url);
const FAST = { retries: 1, baseDelayMs: 5, maxDelayMs: 20, maxRetryAfterMs: 1_000 };
let svc: TestService | undefined;
let fixture: Fixture | undefined;
let worker: StatusesWorker | undefined;
afterEach(async () => {
  await worker?.stop();
  await svc?.close();
  await fixture?.close();
  svc = fixture = worker = undefined;
});

beforeAll(() => {
  if (!existsSync(BUILT)) throw new Error('run `npm run build` first: the worker runs from dist/');
});

describe('the poll worker thread', () => {
  it('posts every check first, then only what changed', async () => {
    svc = await startTestService({ checks: 150 });
    worker = spawnStatusesWorker({ baseUrl: svc.url, ...svc.credentials, retry: FAST }, BUILT);
    const first = await worker.poll(5_000);
    expect(first.changed).toHaveLength(150);
    expect(first.summary?.totalChecks).toBe(150);
    await svc.seed('c3', ['failed', 'failed']);
    const next = await worker.poll(5_000);
    expect(next.changed.map((c) => c.checkId)).toEqual(['c3']);
    expect(next).toMatchObject({ removed: [], requests: 2 });
  });

  it('fails a poll with the ApiError of a long Retry-After, fields and all', async () => {
    fixture = await startFixture((_req, res) =>
      json(res, 429, { error: 'rate', message: 'slow down', statusCode: 429 }, { 'retry-after': '30' }),
    );
    worker = spawnStatusesWorker({ baseUrl: fixture.url, apiKey: 'k', accountId: 'a', retry: FAST }, BUILT);
    const error = await worker.poll(5_000).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ kind: 'http', status: 429, retryAfterMs: 30_000, retryable: true });
    expect((error as ApiError).message).toContain('slow down');
  });

  it('fails a poll with a network error for a closed port, without the key', async () => {
    const key = 'cw_secret_key_do_not_show';
    worker = spawnStatusesWorker(
      { baseUrl: await closedPortUrl(), apiKey: key, accountId: 'a', retry: FAST },
      BUILT,
    );
    const error = await worker.poll(5_000).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'network' });
    expect(JSON.stringify({ ...(error as object), m: (error as Error).message })).not.toContain(key);
  });

  it('fails the poll in flight when its thread dies, and starts a thread for the next poll', async () => {
    worker = spawnStatusesWorker(
      { baseUrl: 'http://127.0.0.1:1', retry: FAST },
      new URL('data:text/javascript,process.exit(3)'),
    );
    await expect(worker.poll(5_000)).rejects.toThrow(/exited \(code 3\)|failed/);
    await expect(worker.poll(5_000)).rejects.toThrow(/exited|failed/);
  });
});
