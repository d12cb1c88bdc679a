// The poller against the real service and against a loopback fixture for faults,
// on a fake clock: the test moves the poller's time, the requests are real.
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import { createConsoleStore } from '../../src/store/create-store.js';
import { scopeOf } from '../../src/store/dashboards-slice.js';
import { statusesFeed } from '../../src/store/feeds/statuses-feed.js';
import { createPoller, type Poller } from '../../src/store/poller.js';
import { createFakeClock } from '../helpers/fake-clock.js';
import { closedPortUrl, json, startFixture, type Fixture } from '../helpers/fixture.js';
import { sampleDashboard, sampleStatus, statusPage } from '../helpers/samples.js';
import { startTestService, type TestService } from '../helpers/service.js';

const FAST = { baseMs: 20, maxMs: 100 };
let cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const f of cleanup.reverse()) await f();
  cleanup = [];
});

function start(baseUrl: string, refreshMs = 60_000) {
  const client = createClient({
    baseUrl,
    apiKey: 'cw_test_0123456789abcdef',
    accountId: '0b6f3c52-7c1e-4d8a-9f2b-3c4d5e6f7a8b',
    retry: { retries: 0 },
  });
  const store = createConsoleStore({ refreshMs });
  const clock = createFakeClock();
  const poller: Poller = createPoller({
    store,
    client,
    feeds: [statusesFeed],
    backoff: FAST,
    tickMs: 0,
    clock,
  });
  cleanup.push(
    () => poller.stop(),
    () => client.close(),
  );
  return { store, poller, clock };
}

async function fixture(handler: Parameters<typeof startFixture>[0]): Promise<Fixture> {
  const f = await startFixture(handler);
  cleanup.push(() => f.close());
  return f;
}

describe('poller', () => {
  it("returns to the console's interval the moment a slower dashboard is left", async () => {
    const f = await fixture((_req, res) => json(res, 200, statusPage([sampleStatus('x')], 1, 1, 1)));
    const client = createClient({
      baseUrl: f.url,
      apiKey: 'cw_test_0123456789abcdef',
      accountId: 'a',
      retry: { retries: 0 },
    });
    const store = createConsoleStore({ refreshMs: 500 });
    const slow = sampleDashboard({
      checkIds: ['x'],
      configuration: { ...sampleDashboard().configuration, refreshInterval: 60 },
    });
    store.getState().pushView({ name: 'dashboard', dashboard: slow, scope: scopeOf(slow) });
    const clock = createFakeClock();
    const poller = createPoller({ store, client, feeds: [statusesFeed], backoff: FAST, tickMs: 0, clock });
    cleanup.push(
      () => poller.stop(),
      () => client.close(),
    );
    await expect.poll(() => f.seen.length).toBe(1);
    await expect.poll(() => store.getState().phase).toBe('live');
    store.getState().popView();
    // The dashboard's 60 s wait is over: the next poll comes within the console's 0.5 s.
    await clock.advance(500);
    await expect.poll(() => f.seen.length).toBeGreaterThanOrEqual(2);
  });

  it('reads every page of statuses from the real service with the summary', async () => {
    const svc: TestService = await startTestService({ checks: 230 });
    cleanup.push(() => svc.close());
    await svc.seed('c7', ['failed', 'failed']);
    const { store } = start(svc.url);
    await expect.poll(() => Object.keys(store.getState().checks).length).toBe(230);
    expect(store.getState().summary?.totalChecks).toBe(230);
    expect(store.getState().phase).toBe('live');
    expect(store.getState().checks['c7']?.status).toBe('failing');
  });

  it('says "connecting" with the reason while the service is down at start', async () => {
    const { store } = start(await closedPortUrl());
    await expect.poll(() => store.getState().lastError?.kind).toBe('network');
    expect(store.getState().phase).toBe('connecting');
    expect(store.getState().nextRetryAt).not.toBeNull();
  });

  it('keeps the last data through a 503 burst, marks it stale, and recovers by itself', async () => {
    let failing = false;
    const f = await fixture((_req, res) =>
      failing
        ? json(res, 503, { statusCode: 503, error: 'Service Unavailable', message: 'maintenance' })
        : json(res, 200, statusPage([sampleStatus('x')], 1, 1, 1)),
    );
    const { store, poller, clock } = start(f.url, 30);
    await expect.poll(() => store.getState().phase).toBe('live');
    failing = true;
    await clock.advance(30);
    await expect.poll(() => store.getState().phase).toBe('retrying');
    expect(store.getState().lastError).toMatchObject({ kind: 'http', status: 503 });
    expect(store.getState().checks['x']).toMatchObject({ checkId: 'x' });
    failing = false;
    poller.pollNow();
    await expect.poll(() => store.getState().phase).toBe('live');
    expect(store.getState().lastError).toBeNull();
  });

  it('waits as long as Retry-After says', async () => {
    const f = await fixture((_req, res, n) =>
      n === 1
        ? json(
            res,
            429,
            { statusCode: 429, error: 'Too Many Requests', message: 'slow' },
            { 'retry-after': '1' },
          )
        : json(res, 200, statusPage([], 1, 1, 0)),
    );
    const { store, clock } = start(f.url);
    await expect.poll(() => store.getState().lastError?.status).toBe(429);
    await clock.advance(999);
    // Not asked again before the second is up: no poll went out.
    expect(store.getState().polling).toBe(false);
    expect(f.seen).toHaveLength(1);
    await clock.advance(1);
    await expect.poll(() => store.getState().phase).toBe('live');
    expect(f.seen).toHaveLength(2);
  });

  it('never runs two polls at once, even when asked to poll again', async () => {
    let inFlight = 0;
    let most = 0;
    // Each answer waits until the test lets it go, so the asks below land while one is in flight.
    const held: Array<() => void> = [];
    const f = await fixture((_req, res) => {
      inFlight++;
      most = Math.max(most, inFlight);
      held.push(() => {
        inFlight--;
        json(res, 200, statusPage([], 1, 1, 0));
      });
    });
    const { store, poller } = start(f.url);
    await expect.poll(() => held.length).toBe(1);
    poller.pollNow();
    poller.pollNow();
    poller.pollNow();
    held.shift()!();
    await expect.poll(() => f.seen.length).toBeGreaterThanOrEqual(2);
    held.shift()!();
    await expect.poll(() => store.getState().polling).toBe(false);
    expect(most).toBe(1);
  });

  it('reports malformed JSON as a decode error and keeps what it had', async () => {
    let broken = false;
    const f = await fixture((_req, res) =>
      broken ? res.end('{"data": [') : json(res, 200, statusPage([sampleStatus('x')], 1, 1, 1)),
    );
    const { store, poller } = start(f.url);
    await expect.poll(() => store.getState().phase).toBe('live');
    broken = true;
    poller.pollNow();
    await expect.poll(() => store.getState().lastError?.kind).toBe('decode');
    expect(Object.keys(store.getState().checks)).toEqual(['x']);
  });

  it('pauses and resumes', async () => {
    const f = await fixture((_req, res) => json(res, 200, statusPage([], 1, 1, 0)));
    const { store, poller, clock } = start(f.url, 30);
    await expect.poll(() => store.getState().phase).toBe('live');
    poller.pause();
    expect(store.getState().phase).toBe('paused');
    const seen = f.seen.length;
    await clock.advance(150); // several refresh intervals pass without a request
    expect(store.getState().polling).toBe(false);
    expect(f.seen.length).toBeLessThanOrEqual(seen + 1);
    poller.resume();
    await expect.poll(() => f.seen.length).toBe(seen + 1);
    await expect.poll(() => store.getState().polling).toBe(false);
    await clock.advance(30);
    await expect.poll(() => f.seen.length).toBeGreaterThan(seen + 1);
    expect(store.getState().phase).toBe('live');
  });
});
