// One poll of the statuses as the worker runs it, here on the test's thread: the
// whole list or the hot lists, conditional reads, and only what changed comes out.
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/client.js';
import type { CheckStatus } from '../../src/api/schemas/index.js';
import { initialPollState, pollStatuses, type PollState } from '../../src/store/poll-worker/poll-statuses.js';
import { createStatusTracker } from '../../src/store/poll-worker/status-tracker.js';
import { json, startFixture, type Fixture } from '../helpers/fixture.js';
import { sampleStatus, sampleSummary } from '../helpers/samples.js';
import { startTestService, type TestService } from '../helpers/service.js';

const FAST = { retries: 0, baseDelayMs: 5, maxDelayMs: 20, maxRetryAfterMs: 5_000 };
const REFRESH = 5_000;
let svc: TestService | undefined;
let fixture: Fixture | undefined;
afterEach(async () => {
  await svc?.close();
  await fixture?.close();
  svc = fixture = undefined;
});

async function onService(checks: number) {
  svc = await startTestService({ checks });
  const client = createClient({ baseUrl: svc.url, ...svc.credentials, retry: FAST });
  const state = initialPollState(createStatusTracker());
  return { svc, state, poll: () => pollStatuses(client, state, REFRESH) };
}

const ids = (list: CheckStatus[]) => list.map((c) => c.checkId).sort();

describe('pollStatuses on a small account (the whole list every refresh)', () => {
  it('brings every check first, then nothing while nothing changes, then only the changed check', async () => {
    const { svc, poll } = await onService(250);
    const first = await poll();
    expect(first).toMatchObject({ swept: true, requests: 3, unchangedPages: 0, removed: [] });
    expect(first.changed).toHaveLength(250);
    expect(first.summary?.totalChecks).toBe(250);
    expect(first.plan.tiered).toBe(false);

    const quiet = await poll();
    expect(quiet).toMatchObject({ swept: true, changed: [], removed: [], requests: 3, unchangedPages: 3 });
    expect(quiet.summary).toEqual(first.summary);

    await svc.seed('c42', ['failed', 'failed', 'failed']);
    const after = await poll();
    expect(ids(after.changed)).toEqual(['c42']);
    expect(after.changed[0]!.lastExecution?.status).toBe('failed');
    // Page 1 holds the summary, which changed with c42; the third page did not change.
    expect(after.unchangedPages).toBeGreaterThanOrEqual(1);
  });
});

describe('pollStatuses on a large account (tiered)', () => {
  it('reads only the failing and degraded checks between sweeps, and shows a check turning failing at once', async () => {
    const { svc, state, poll } = await onService(1_100);
    const first = await poll();
    expect(first.swept).toBe(true);
    expect(first.changed).toHaveLength(1_100);
    expect(first.plan).toEqual({ tiered: true, sweepEvery: 2, minGap: 1 });

    await svc.seed('c1000', ['failed', 'failed', 'failed'], { location: 'eu-west' });
    await svc.seed('c1000', ['failed', 'failed', 'failed'], { location: 'us-east' });
    const hot = await poll();
    expect(hot).toMatchObject({ swept: false, requests: 2, removed: [] });
    expect(ids(hot.changed)).toEqual(['c1000']);
    expect(hot.changed[0]!.status).toBe('failing');
    expect(hot.summary?.failing).toBe(1);
    expect(state.sinceSweep).toBe(1);

    const sweep = await poll();
    expect(sweep.swept).toBe(true);
    expect(sweep.changed).toEqual([]);
    // Of 11 pages, page 1 (the summary) and the page of c1000 changed; c1000 came with the hot read.
    expect(sweep.unchangedPages).toBe(9);
    expect(state.sinceSweep).toBe(0);
  });

  it('brings the sweep forward when a check leaves the hot lists', async () => {
    const { svc, state, poll } = await onService(2_100);
    const now = Date.now();
    // Slow answers make c7 degraded (degradedMs 1000); fast ones later make it passing again.
    await svc.seed('c7', ['success', 'success', 'success'], {
      responseTime: 1_500,
      endAt: now - 40_000,
      spacingMs: 10_000,
    });
    const first = await poll();
    expect(first.plan).toEqual({ tiered: true, sweepEvery: 3, minGap: 1 });
    expect(first.changed.find((c) => c.checkId === 'c7')?.status).toBe('degraded');
    await svc.seed('c7', ['success', 'success', 'success'], {
      responseTime: 100,
      endAt: now,
      spacingMs: 10_000,
    });
    const hot = await poll();
    expect(hot.swept).toBe(false);
    expect(hot.changed).toEqual([]); // c7 is in neither hot list any more: its status is not known yet
    expect(state.leftHot).toBe(true);
    const sweep = await poll(); // the 2nd refresh of 3: brought forward
    expect(sweep.swept).toBe(true);
    expect(ids(sweep.changed)).toEqual(['c7']);
    expect(sweep.changed[0]!.status).toBe('passing');
    expect(state.leftHot).toBe(false);
  });
});

describe('pollStatuses against a server without ETags', () => {
  it("carries the service's own health, and its recovery, even when the page's checks did not change", async () => {
    let service: unknown = {
      status: 'degraded',
      reasons: [{ code: 'db', message: 'the database is unreachable', since: '2026-11-22T09:03:07.000Z' }],
    };
    fixture = await startFixture((_req, res) =>
      json(res, 200, {
        data: [sampleStatus('a')],
        meta: { currentPage: 1, totalPages: 1, totalItems: 1, limit: 100, summary: sampleSummary(), service },
      }),
    );
    const client = createClient({ baseUrl: fixture.url, apiKey: 'k', accountId: 'a', retry: FAST });
    const state: PollState = initialPollState(createStatusTracker());
    expect((await pollStatuses(client, state, REFRESH)).service).toMatchObject({ status: 'degraded' });
    service = { status: 'ok', reasons: [] };
    expect((await pollStatuses(client, state, REFRESH)).service).toMatchObject({ status: 'ok' });
  });

  it('carries the declared location outages, and their end, even when the checks did not change', async () => {
    const down = {
      id: 'sin',
      name: 'Singapore',
      outageId: 'o1',
      since: '2026-11-28T03:12:00.000Z',
      failing: 12,
      total: 14,
    };
    let locationOutages: unknown[] = [down];
    fixture = await startFixture((_req, res) =>
      json(res, 200, {
        data: [sampleStatus('a')],
        meta: {
          currentPage: 1,
          totalPages: 1,
          totalItems: 1,
          limit: 100,
          summary: sampleSummary(),
          locationOutages,
        },
      }),
    );
    const client = createClient({ baseUrl: fixture.url, apiKey: 'k', accountId: 'a', retry: FAST });
    const state: PollState = initialPollState(createStatusTracker());
    expect((await pollStatuses(client, state, REFRESH)).locationOutages).toEqual([down]);
    locationOutages = [];
    expect((await pollStatuses(client, state, REFRESH)).locationOutages).toEqual([]);
  });

  it('compares bytes instead, and reports the checks that left the account', async () => {
    let checks = [sampleStatus('a'), sampleStatus('b'), sampleStatus('c')];
    fixture = await startFixture((_req, res) =>
      json(res, 200, {
        data: checks,
        meta: {
          currentPage: 1,
          totalPages: 1,
          totalItems: checks.length,
          limit: 100,
          summary: sampleSummary(),
        },
      }),
    );
    const client = createClient({ baseUrl: fixture.url, apiKey: 'k', accountId: 'a', retry: FAST });
    const state: PollState = initialPollState(createStatusTracker());
    const poll = () => pollStatuses(client, state, REFRESH);
    expect(ids((await poll()).changed)).toEqual(['a', 'b', 'c']);
    expect(await poll()).toMatchObject({ changed: [], removed: [], unchangedPages: 1 });
    checks = [sampleStatus('a'), sampleStatus('c', { status: 'failing' }), sampleStatus('d')];
    const next = await poll();
    expect(ids(next.changed)).toEqual(['c', 'd']);
    expect(next.removed).toEqual(['b']);
    expect(fixture.seen.every((r) => r.headers['if-none-match'] === undefined)).toBe(true);
  });

  it('passes an error on as the client raised it', async () => {
    fixture = await startFixture((_req, res) =>
      json(res, 429, { error: 'rate', message: 'slow down', statusCode: 429 }, { 'retry-after': '120' }),
    );
    const client = createClient({ baseUrl: fixture.url, apiKey: 'k', accountId: 'a', retry: FAST });
    const error = await pollStatuses(client, initialPollState(createStatusTracker()), REFRESH).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ kind: 'http', status: 429, retryAfterMs: 120_000 });
  });

  it("hands each page's changes to a sink, and sends them again after a poll that failed half-way", async () => {
    let failPage2 = true;
    fixture = await startFixture((req, res) => {
      const page = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('page') ?? '1');
      if (page === 2 && failPage2) return json(res, 500, { error: 'boom', message: 'boom', statusCode: 500 });
      const meta = { currentPage: page, totalPages: 2, totalItems: 2, limit: 1, summary: sampleSummary() };
      json(res, 200, { data: [sampleStatus(page === 1 ? 'a' : 'b')], meta });
    });
    const client = createClient({ baseUrl: fixture.url, apiKey: 'k', accountId: 'a', retry: FAST });
    const state = initialPollState(createStatusTracker());
    const sent: string[] = [];
    const poll = () => pollStatuses(client, state, REFRESH, {}, (c) => sent.push(...c.map((x) => x.checkId)));
    await expect(poll()).rejects.toMatchObject({ status: 500 });
    expect(sent).toEqual(['a']);
    failPage2 = false;
    sent.length = 0;
    const next = await poll();
    expect(next.changed).toEqual([]);
    expect(sent.sort()).toEqual(['a', 'b']);
    sent.length = 0;
    expect(await poll()).toMatchObject({ unchangedPages: 2 });
    expect(sent).toEqual([]);
  });
});
