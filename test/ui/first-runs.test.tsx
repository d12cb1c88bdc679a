// The first ten seconds (issue 36): checks that have not run yet read as first
// runs in progress, and the console polls every second until they land.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import { createConsoleStore } from '../../src/store/create-store.js';
import { selectFirstRuns } from '../../src/store/selectors.js';
import { statusesFeed, statusesInterval } from '../../src/store/feeds/statuses-feed.js';
import { mountConsole, type MountedConsole } from '../helpers/console.js';
import { json, startFixture } from '../helpers/fixture.js';
import { sampleStatus, sampleSummary } from '../helpers/samples.js';
import { startTestService, type TestService } from '../helpers/service.js';

describe('the poll interval in the warm-up', () => {
  it('is a second while a check has never run, within the first refresh interval only', () => {
    const store = createConsoleStore({ refreshMs: 10_000 });
    const fresh = sampleStatus('a', { status: 'unknown', lastExecution: null });
    store.getState().applyStatuses([fresh, sampleStatus('b')], sampleSummary(), 1_000);
    expect(statusesInterval(store.getState(), 1_500)).toBe(1_000);
    expect(statusesInterval(store.getState(), 10_999)).toBe(1_000);
    expect(statusesInterval(store.getState(), 11_000)).toBe(10_000);
    store.getState().applyStatuses([sampleStatus('a'), sampleStatus('b')], sampleSummary(), 2_000);
    expect(statusesInterval(store.getState(), 2_500)).toBe(10_000);
  });

  it('does not count a disabled or paused check that never ran: it is not about to', () => {
    const store = createConsoleStore({ refreshMs: 10_000 });
    const off = sampleStatus('a', {
      status: 'unknown',
      lastExecution: null,
      schedule: { frequency: '60s', nextRun: null, enabled: false },
    });
    store.getState().applyStatuses([off, sampleStatus('b')], sampleSummary(), 1_000);
    expect(selectFirstRuns(store.getState(), 1_500)).toBe(0);
    expect(statusesInterval(store.getState(), 1_500)).toBe(10_000);
  });
});

describe('the board before the first runs land (120x30)', () => {
  let svc: TestService;
  let mounted: MountedConsole;
  // eslint-disable-next-line no-control-regex -- reading the text without colour codes
  const plain = () => (mounted.view.lastFrame() ?? '').replace(/\u001b\[[0-9;]*m/g, '');
  beforeAll(async () => {
    svc = await startTestService({ checks: 3 });
    const client = createClient({ baseUrl: svc.url, ...svc.credentials });
    const store = createConsoleStore({ refreshMs: 10_000, label: 'test', host: 'svc' });
    store.getState().setSize(120, 30);
    mounted = mountConsole(store, client, [statusesFeed]);
  });
  afterAll(async () => {
    await mounted.close();
    await svc.close();
  });

  it('says first runs are in progress, not UNKNOWN, and shows the runs within seconds', async () => {
    await expect.poll(plain).toContain('first runs in progress (3 of 3)');
    expect(plain()).toContain('STARTING');
    expect(plain()).not.toContain('UNKNOWN');
    await svc.seed('c1', ['failed', 'failed'], { location: 'eu-west' });
    await svc.seed('c1', ['failed', 'failed'], { location: 'us-east' });
    svc.engine.rereadAll();
    // A refresh interval is 10 s: the board must not wait for it.
    await expect.poll(plain, { timeout: 4_000 }).toMatch(/FAILING\s+\S*\s*Check 0001/);
  });
});

describe("the service's own health on the board (100x30)", () => {
  it('shows SERVICE DEGRADED with the reason and since when, in its own line', async () => {
    const since = '2026-11-22T09:03:07.000Z';
    const fixture = await startFixture((_req, res) =>
      json(res, 200, {
        data: [sampleStatus('a', { checkName: 'Alpha' })],
        meta: {
          currentPage: 1,
          totalPages: 1,
          totalItems: 1,
          limit: 100,
          summary: sampleSummary(),
          service: {
            status: 'degraded',
            reasons: [{ code: 'late', message: 'results are \u001b[31m5 min late', since }],
          },
        },
      }),
    );
    const client = createClient({ baseUrl: fixture.url, apiKey: 'k', accountId: 'a' });
    const store = createConsoleStore({ refreshMs: 60_000, label: 'test', host: 'svc' });
    store.getState().setSize(100, 30);
    const mounted = mountConsole(store, client, [statusesFeed]);
    try {
      // eslint-disable-next-line no-control-regex -- reading the text without colour codes
      const plain = () => (mounted.view.lastFrame() ?? '').replace(/\u001b\[[0-9;]*m/g, '');
      await expect.poll(plain).toContain('SERVICE DEGRADED: results are 5 min late since 09:03:07 UTC');
      expect(plain()).toContain('Alpha');
      expect(plain().split('\n').length).toBeLessThanOrEqual(30);
    } finally {
      await mounted.close();
      await fixture.close();
    }
  });
});
