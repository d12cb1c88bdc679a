/// <reference lib="dom" />
// The public status page in a real Chromium (one launch for the file): what it
// shows against GET /v1/check-statuses, its themes and custom CSS, a hostile
// check name as text, its Content-Security-Policy, the 90-day bar, the refresh
// without a reload, and axe-core's WCAG A/AA rules in both themes (with scheduled
// maintenance shown).
import { createRequire } from 'node:module';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckStatusListSchema } from '../../src/api/schemas/index.js';
import {
  browserMissing,
  chromiumPath,
  launchBrowser,
  type LaunchedBrowser,
} from '../../src/server/runners/browser-launch.js';
import { CUSTOM_COLOUR, HOSTILE, statusPageConfig } from '../helpers/status-page.js';
import { startTestService, TEST_ACCOUNT, TEST_KEY, type TestService } from '../helpers/service.js';

const missing = browserMissing();
if (missing) console.warn(`skipping the status page's browser tests: ${missing}`);
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const DAY_MS = 86_400_000;
const FAILED_DAYS_AGO = 10;
// Read once: the day the failures are seeded on is the day the bar is asked for,
// even when midnight passes between the two.
const failedAt = Date.now() - FAILED_DAYS_AGO * DAY_MS;

let svc: TestService;
let launched: LaunchedBrowser;
let browser: Browser;
let context: BrowserContext;

beforeAll(async () => {
  if (missing) return;
  svc = await startTestService({ config: statusPageConfig() });
  await svc.seed('c1', ['success', 'failed', 'failed', 'failed']);
  await svc.seed('c2', ['success', 'success']);
  // A day of failures ten days ago, then a passing run now.
  await svc.seed('c3', ['failed', 'failed', 'failed'], { endAt: failedAt });
  await svc.seed('c3', ['success']);
  launched = await launchBrowser(chromiumPath(), 30_000);
  browser = launched.browser;
  context = await browser.newContext();
  await context.route('https://example.test/**', (route) =>
    route.fulfill({ status: 200, contentType: 'image/png', body: PIXEL }),
  );
}, 60_000);
afterAll(async () => {
  if (missing) return;
  await browser?.close();
  await launched?.cleanUp();
  await svc?.close();
});

interface Watched {
  page: Page;
  dialogs: string[];
  violations: () => Promise<string[]>;
}

async function open(ctx: BrowserContext = context): Promise<Watched> {
  const page = await ctx.newPage();
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  // Strings, not functions: the tests compile without the DOM's types.
  await page.addInitScript(`window.violations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      window.violations.push(e.violatedDirective + ' ' + e.blockedURI));`);
  const res = await page.goto(`${svc.url}/status/board`);
  expect(res?.status()).toBe(200);
  return {
    page,
    dialogs,
    violations: () => page.evaluate<string[]>('window.violations'),
  };
}

describe.skipIf(missing)('the status page in Chromium', () => {
  it('shows the counts and rows of GET /v1/check-statuses for the dashboard’s checks', async () => {
    const res = await fetch(`${svc.url}/v1/check-statuses?limit=100`, {
      headers: { 'x-service-account': TEST_ACCOUNT, authorization: `Bearer ${TEST_KEY}` },
    });
    const statuses = CheckStatusListSchema.parse(await res.json()).data.filter((s) =>
      ['c1', 'c2', 'c3'].includes(s.checkId),
    );
    const { page } = await open();
    for (const s of ['passing', 'degraded', 'failing', 'unknown'] as const)
      expect(await page.locator(`.sp-count--${s} .sp-count-value`).textContent()).toBe(
        String(statuses.filter((x) => x.status === s).length),
      );
    const rows = await page.evaluate<Array<[string, string]>>(
      `[...document.querySelectorAll('.sp-check')].map((el) =>
        [el.getAttribute('data-check-id'), el.querySelector('.sp-status').className])`,
    );
    expect(new Map(rows)).toEqual(
      new Map(statuses.map((s) => [s.checkId, `sp-status sp-status--${s.status}`])),
    );
    await page.close();
  });

  it('applies the dark theme and the custom CSS, and shows a hostile name as text', async () => {
    const { page, dialogs } = await open();
    const style = (selector: string, property: string) =>
      page.evaluate<string>(`getComputedStyle(document.querySelector('${selector}')).${property}`);
    const body = await style('.sp-body', 'backgroundColor');
    expect(body).toBe('rgb(17, 20, 24)');
    expect(await style('.sp-name', 'color')).toBe(CUSTOM_COLOUR);
    expect(await page.locator('.sp-check[data-check-id="c1"] .sp-check-name').textContent()).toBe(HOSTILE);
    expect(await page.title()).toBe('Acme <status>: status');
    expect(dialogs).toEqual([]);
    await page.close();
  });

  it('raises no CSP violation of its own, and blocks an injected inline script', async () => {
    const { page, violations } = await open();
    await page.waitForLoadState('load');
    expect(await violations()).toEqual([]);
    await page.evaluate(`{
      const s = document.createElement('script');
      s.textContent = 'window.ran = true';
      document.body.append(s);
    }`);
    await expect.poll(violations).toEqual([expect.stringMatching(/^script-src-elem inline/)]);
    expect(await page.evaluate('window.ran')).toBeUndefined();
    await page.close();
  });

  it('marks the seeded day of failures on the 90-day bar', async () => {
    const { page } = await open();
    const day = new Date(failedAt).toISOString().slice(0, 10);
    const bad = page.locator('.sp-check[data-check-id="c3"] .sp-day--bad');
    expect(await bad.count()).toBe(1);
    expect(await bad.textContent()).toBe(`${day}: 0% available, 3 of 3 runs failed`);
    expect(await page.locator('.sp-check[data-check-id="c3"] .sp-day').count()).toBe(90);
    await page.close();
  });

  it('has no WCAG A/AA violation by axe-core in either theme', async () => {
    const ctx = await browser.newContext({ bypassCSP: true });
    await ctx.route('https://example.test/**', (route) =>
      route.fulfill({ status: 200, contentType: 'image/png', body: PIXEL }),
    );
    // The test's custom CSS draws the name in a colour of no contrast: our own styles are judged.
    await ctx.route('**/custom.css', (route) =>
      route.fulfill({ status: 200, contentType: 'text/css', body: '' }),
    );
    // A window in progress and one scheduled: their section and marks are judged too.
    const made: string[] = [];
    for (const body of [
      { name: 'Database upgrade', scope: { checks: ['c2'] }, duration: '30m' },
      {
        name: 'Network work',
        scope: { checks: ['c3'] },
        startsAt: new Date(Date.now() + DAY_MS).toISOString(),
        duration: '1h',
      },
    ]) {
      const res = await fetch(`${svc.url}/v1/maintenance-windows`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${TEST_KEY}`,
          'x-service-account': TEST_ACCOUNT,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ reason: 'internal', ...body }),
      });
      expect(res.status).toBe(201);
      made.push(((await res.json()) as { id: string }).id);
    }
    // A rendered page is shared for up to a second (routes.ts PAGE_KEPT_MS): the one the test
    // before opened, without the windows, may still be served.
    let page!: Page;
    await expect
      .poll(
        async () => {
          page = (await open(ctx)).page;
          const windows = await page.locator('.sp-window').count();
          if (windows !== 2) await page.close();
          return windows;
        },
        { timeout: 5_000, interval: 250 },
      )
      .toBe(2);
    expect(await page.locator('.sp-check[data-check-id="c2"] .sp-under-maintenance').textContent()).toBe(
      'Under maintenance',
    );
    await page.addScriptTag({ path: AXE });
    const run = () =>
      page.evaluate<string[]>(`axe
        .run({ runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } })
        .then((r) => r.violations.map((v) => v.id + ': ' + v.nodes.map((n) => n.html).join(' | ')))`);
    expect(await run()).toEqual([]);
    await page.evaluate("document.documentElement.setAttribute('data-theme', 'light')");
    expect(await run()).toEqual([]);
    await ctx.close();
    for (const id of made)
      await fetch(`${svc.url}/v1/maintenance-windows/${id}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${TEST_KEY}`, 'x-service-account': TEST_ACCOUNT },
      });
  });

  it('shows a changed status on its refreshInterval without a reload', async () => {
    const { page } = await open();
    await page.evaluate('window.kept = 1');
    const row = page.locator('.sp-check[data-check-id="c2"] .sp-status');
    expect(await row.getAttribute('class')).toBe('sp-status sp-status--passing');
    await svc.seed('c2', ['failed', 'failed', 'failed', 'failed', 'failed'], { spacingMs: 10 });
    await expect
      .poll(() => row.getAttribute('class'), { timeout: 10_000 })
      .toBe('sp-status sp-status--failing');
    expect(await page.evaluate('window.kept')).toBe(1);
    await page.close();
  });
});
