// The status page's "Scheduled maintenance" (issue 33) over real HTTP: windows made
// with POST /v1/maintenance-windows show on GET /status/{slug} and in the public read
// by name (escaped), times and the dashboard's checks they cover, never their reason;
// a check under an active window says "Under maintenance"; a window over none of the
// dashboard's checks, or starting more than 7 days ahead, is not shown; an ended one is gone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MaintenanceWindowSchema } from '../../../src/api/schemas/maintenance.js';
import { PublicDashboardSchema } from '../../../src/api/schemas/index.js';
import { statusPageConfig } from '../../helpers/status-page.js';
import { startTestService, TEST_ACCOUNT, TEST_KEY, type TestService } from '../../helpers/service.js';

const AUTH = {
  authorization: `Bearer ${TEST_KEY}`,
  'x-service-account': TEST_ACCOUNT,
  'content-type': 'application/json',
};
const HOSTILE_NAME = '<img src=x onerror=alert(1)> DB & "upgrade"';
const ESCAPED_NAME = '&lt;img src=x onerror=alert(1)&gt; DB &amp; &quot;upgrade&quot;';
const REASON = 'internal: rotating the primary at 10.0.0.5';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService({ config: statusPageConfig() });
});
afterAll(() => svc.close());

async function create(body: Record<string, unknown>) {
  const res = await fetch(`${svc.url}/v1/maintenance-windows`, {
    method: 'POST',
    headers: AUTH,
    body: JSON.stringify({ reason: REASON, ...body }),
  });
  expect(res.status).toBe(201);
  return MaintenanceWindowSchema.parse(await res.json());
}

let address = 0;
const page = async () => {
  const res = await fetch(`${svc.url}/status/board`, {
    headers: { 'x-forwarded-for': `10.3.0.${++address % 250}` },
  });
  expect(res.status).toBe(200);
  return res.text();
};
/** The check's row on the page. */
const row = (html: string, checkId: string) =>
  html.match(new RegExp(`<li class="sp-check" data-check-id="${checkId}">[\\s\\S]*?</li>`))?.[0] ?? '';

describe('scheduled maintenance on the status page', () => {
  it('shows active and upcoming windows over its checks by name, and drops an ended one', async () => {
    const now = Date.now();
    const active = await create({ name: HOSTILE_NAME, scope: { checks: ['c2'] }, duration: '30m' });
    // Tag `odd` covers c2 (on the dashboard) and c4 (not on it): only c2 is named.
    const soon = await create({
      name: 'Network upgrade',
      scope: { tags: ['odd'] },
      startsAt: new Date(now + 2 * DAY).toISOString(),
      duration: '1h',
    });
    await create({
      name: 'Far away',
      scope: { checks: ['c1'] },
      startsAt: new Date(now + 8 * DAY).toISOString(),
      duration: '1h',
    });
    await create({ name: 'Private box', scope: { checks: ['c4'] }, duration: '1h' });

    const html = await page();
    expect(html).toContain('<h2 id="sp-maintenance-title">Scheduled maintenance</h2>');
    expect(html).not.toContain(HOSTILE_NAME);
    expect(html).toContain(ESCAPED_NAME);
    expect(html).not.toContain(REASON);
    expect(html).not.toContain('Far away');
    expect(html).not.toContain('Private box');
    const section = html.match(/<section class="sp-maintenance"[\s\S]*?<\/section>/)![0];
    const items = section.match(/<li class="sp-window[\s\S]*?<\/li>/g)!;
    expect(items).toHaveLength(2);
    expect(items[0]).toContain('sp-window--active');
    expect(items[0]).toContain('In progress');
    expect(items[0]).toContain(`<time datetime="${active.startsAt}">`);
    expect(items[0]).toContain(`<time datetime="${active.endsAt}">`);
    expect(items[0]).toContain('Affects: Check 0002');
    expect(items[1]).toContain('Network upgrade');
    expect(items[1]).toContain('Scheduled');
    expect(items[1]).toContain(`<time datetime="${soon.startsAt}">`);
    expect(items[1]).toContain('Affects: Check 0002<');
    // The section is near the top: before the widgets.
    expect(html.indexOf('sp-maintenance')).toBeLessThan(html.indexOf('id="sp-w1"'));
    expect(row(html, 'c2')).toContain('Under maintenance');
    expect(row(html, 'c1')).not.toContain('Under maintenance');

    const read = await fetch(`${svc.url}/v1/public/dashboards/board`, {
      headers: { 'x-forwarded-for': '10.3.1.1' },
    });
    const text = await read.text();
    expect(text).not.toContain(REASON);
    expect(PublicDashboardSchema.parse(JSON.parse(text)).data.maintenance).toEqual([
      {
        name: HOSTILE_NAME,
        startsAt: active.startsAt,
        endsAt: active.endsAt,
        state: 'active',
        checkIds: ['c2'],
      },
      {
        name: 'Network upgrade',
        startsAt: soon.startsAt,
        endsAt: soon.endsAt,
        state: 'scheduled',
        checkIds: ['c2'],
      },
    ]);

    const ended = await fetch(`${svc.url}/v1/maintenance-windows/${active.id}`, {
      method: 'PATCH',
      headers: AUTH,
      body: JSON.stringify({ endsAt: 'now' }),
    });
    expect(ended.status).toBe(200);
    // A rendered page is shared for up to a second (routes.ts PAGE_KEPT_MS).
    await expect.poll(page).not.toContain(ESCAPED_NAME);
    const after = await page();
    expect(after).toContain('Network upgrade');
    expect(row(after, 'c2')).not.toContain('Under maintenance');
  });
});
