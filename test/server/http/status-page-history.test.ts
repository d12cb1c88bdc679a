// The status page's history (bars, incidents, charts) is kept per dashboard: a
// visitor costs a render, not a read of the roll-ups per check; after 30 s it is
// read again behind the page, and a page older than that is never served for long.
import { gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPageHistory,
  gatherPage,
  HISTORY_FRESH_MS,
} from '../../../src/server/http/status-page/data.js';
import { statusPageConfig } from '../../helpers/status-page.js';
import { startTestService, type TestService } from '../../helpers/service.js';

let svc: TestService;
// Noon on a fixed day: the test moves the clock on by minutes and counts today's
// runs, which a start just before midnight would put on the next day's bar.
let now = Date.UTC(2026, 5, 15, 12);
beforeAll(async () => {
  svc = await startTestService({ config: statusPageConfig(), now: () => now });
});
afterAll(() => svc.close());

describe('a status page history', () => {
  it('is kept for 30 s, then served while it is read again, then new', async () => {
    const { account, dashboard } = svc.accounts.publicDashboard('board')!;
    const deps = { storage: svc.storage, engine: svc.engine, now: () => now };
    const keeper = createPageHistory(() => now);
    const runsToday = async () => {
      const page = await gatherPage(deps, account, dashboard, keeper);
      return page.days.get('c3')!.at(-1)!.runs;
    };
    expect(await runsToday()).toBe(0);
    await svc.seed('c3', ['success', 'failed'], { endAt: now - 1_000 });
    // Kept: the new runs are not read yet.
    expect(await runsToday()).toBe(0);
    now += HISTORY_FRESH_MS + 1;
    // Stale: served as it was while it is read again.
    expect(await runsToday()).toBe(0);
    await expect.poll(runsToday).toBe(2);
    // Far past its age nothing old is served: the page waits for the read.
    await svc.seed('c3', ['success'], { endAt: now - 1_000 });
    now += 10 * HISTORY_FRESH_MS;
    expect(await runsToday()).toBe(3);
  });
});

describe('a rendered status page', () => {
  it('is gzipped for a browser that takes it, the same page, with its own ETag', async () => {
    const gz = await request(`${svc.url}/status/board`, { headers: { 'accept-encoding': 'gzip, br' } });
    const plain = await request(`${svc.url}/status/board`);
    const plainBody = await plain.body.text();
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers['vary']).toContain('accept-encoding');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(gunzipSync(Buffer.from(await gz.body.arrayBuffer())).toString()).toBe(plainBody);
    expect(gz.headers.etag).not.toBe(plain.headers.etag);
    const again = await request(`${svc.url}/status/board`, {
      headers: { 'accept-encoding': 'gzip', 'if-none-match': String(gz.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    await again.body.dump();
    // q=0 refuses it.
    const refused = await request(`${svc.url}/status/board`, { headers: { 'accept-encoding': 'gzip;q=0' } });
    expect(refused.headers['content-encoding']).toBeUndefined();
    await refused.body.dump();
  });
});
