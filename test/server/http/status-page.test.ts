// The public status page over HTTP: one 404 page for every refusal (private,
// unknown, past the limit), the custom domain's route, escaping, the security
// headers and ETags, badges and the incident feed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateConfig } from '../../../src/server/config/load.js';
import type { IncomingMessage } from 'node:http';
import { createAccounts } from '../../../src/server/config/accounts.js';
import { CONTENT_SECURITY_POLICY, customDomainRewrite } from '../../../src/server/http/status-page/routes.js';
import { feedLinks } from '../../../src/server/http/status-page/links.js';
import { CUSTOM_DOMAIN, HOSTILE, statusPageConfig } from '../../helpers/status-page.js';
import { TEST_ACCOUNT } from '../../helpers/configs.js';
import { startTestService, type TestService } from '../../helpers/service.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService({ config: statusPageConfig() });
  await svc.seed('c1', ['success', 'failed', 'failed', 'failed']);
  await svc.seed('c2', ['success', 'success']);
});
afterAll(() => svc.close());

let address = 0;
/** Each call from its own client address (trustProxy), so the per-address limit is not shared. */
const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${svc.url}${path}`, { headers: { 'x-forwarded-for': `10.1.0.${++address % 250}`, ...headers } });

describe('GET /status/{customUrl}', () => {
  it('answers a private, an unknown and a rate-limited slug with the same 404 bytes', async () => {
    const bodies = new Set<string>();
    const statuses = new Set<number>();
    for (const path of ['/status/ops', '/status/nope', '/status/board/badges/c4/status.svg']) {
      const res = await get(path);
      statuses.add(res.status);
      bodies.add(await res.text());
      expect(res.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    }
    // One address past its 40 reads a second: the page it may read is refused as a 404.
    const flood = await Promise.all(
      Array.from({ length: 200 }, () =>
        fetch(`${svc.url}/status/board/status.css`, { headers: { 'x-forwarded-for': '10.9.9.9' } }),
      ),
    );
    const refused = flood.filter((r) => r.status === 404);
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused) bodies.add(await r.text());
    expect(flood.every((r) => r.status === 200 || r.status === 404)).toBe(true);
    expect(statuses).toEqual(new Set([404]));
    expect(bodies.size).toBe(1);
  });

  it('renders the dashboard with escaped text, the security headers and an ETag', async () => {
    const res = await get('/status/board');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    const html = await res.text();
    expect(html).not.toContain(HOSTILE);
    expect(html).toContain('&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('Acme &lt;status&gt;');
    expect(html).toContain('Our &quot;public&quot; services &amp; more');
    // Only the dashboard's checks, in position order, the unknown widget as a comment.
    expect(html).not.toContain('Check 0004');
    expect(html.indexOf('id="sp-w1"')).toBeLessThan(html.indexOf('id="sp-w0"'));
    expect(html).toContain('<!-- widget of unknown type "heatmap" left out -->');
    expect(html).toContain('not available on the public page'.replace(/^n/, 'N'));
    expect(html).toMatch(/Partial outage|Major outage/);
    const again = await get('/status/board', { 'if-none-match': res.headers.get('etag')! });
    expect(again.status).toBe(304);
  });

  it('serves the page, its assets and badges at / on the custom domain, and never /v1', async () => {
    const viaProxy = { 'x-forwarded-host': CUSTOM_DOMAIN };
    const page = await get('/', viaProxy);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('href="/status.css"');
    expect((await get('/status.css', viaProxy)).headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect((await get('/custom.css', viaProxy)).status).toBe(200);
    expect((await get('/badges/c1/status.svg', viaProxy)).status).toBe(200);
    const v1 = await get('/v1/check-statuses', {
      ...viaProxy,
      'x-service-account': svc.credentials.accountId,
      authorization: `Bearer ${svc.credentials.apiKey}`,
    });
    const direct = await get('/v1/check-statuses', {
      'x-service-account': svc.credentials.accountId,
      authorization: `Bearer ${svc.credentials.apiKey}`,
    });
    expect(direct.status).toBe(200);
    expect(v1.status).toBe(404);
    expect((await get('/status/status', viaProxy)).status).toBe(404);
  });

  it('believes X-Forwarded-Host only behind a trusted proxy', () => {
    const accounts = createAccounts(statusPageConfig(), new Date());
    const forwarded = {
      url: '/feed.atom?x=1',
      headers: { host: 'a.test', 'x-forwarded-host': CUSTOM_DOMAIN },
    };
    const direct = { url: '/', headers: { host: `${CUSTOM_DOMAIN.toUpperCase()}:8443` } };
    expect(customDomainRewrite(accounts, true)(forwarded as unknown as IncomingMessage)).toBe(
      '/status/board/feed.atom?x=1',
    );
    expect(customDomainRewrite(accounts, false)(forwarded as unknown as IncomingMessage)).toBe(
      '/feed.atom?x=1',
    );
    expect(customDomainRewrite(accounts, false)(direct as unknown as IncomingMessage)).toBe('/status/board');
  });

  it('serves the custom CSS as its own stylesheet', async () => {
    const res = await get('/status/board/custom.css');
    expect(res.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(await res.text()).toContain('.sp-name');
  });
});

describe('badges', () => {
  it('draws a check on the dashboard and refuses others with the 404 page', async () => {
    const ok = await get('/status/board/badges/c1/status.svg');
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    expect(ok.headers.get('cache-control')).toBe('public, max-age=60');
    const body = await ok.text();
    expect(body).toContain('&lt;/title&gt;&lt;script&gt;');
    expect(body).not.toContain('<script>');
    const uptime = await get('/status/board/badges/c1/uptime.svg?period=7d');
    expect(await uptime.text()).toContain('25%');
    expect((await get('/status/board/badges/c2/response-time.svg')).status).toBe(200);
    const etag = ok.headers.get('etag')!;
    expect((await get('/status/board/badges/c1/status.svg', { 'if-none-match': etag })).status).toBe(304);
    const other = await get('/status/board/badges/secret/status.svg');
    const notOnBoard = await get('/status/board/badges/c4/uptime.svg');
    const unknown = await get('/status/nope');
    expect([other.status, notOnBoard.status]).toEqual([404, 404]);
    const texts = new Set([await other.text(), await notOnBoard.text(), await unknown.text()]);
    expect(texts.size).toBe(1);
  });
});

describe('feed', () => {
  it('lists incidents as Atom when the dashboard shows incidents, and is a 404 otherwise', async () => {
    const res = await get('/status/board/feed.atom');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/atom+xml; charset=utf-8');
    const xml = await res.text();
    expect(xml).toContain('<feed xmlns="http://www.w3.org/2005/Atom">');
    expect(xml).toContain('&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;: outage (opened)');
    expect((await get('/status/status/feed.atom')).status).toBe(200);
  });

  it('never links to the host a client sent: its custom domain, or relative links', async () => {
    const hostile = { 'x-forwarded-host': 'evil.example', host: 'evil.example' };
    const onDomain = await (await get('/status/board/feed.atom', hostile)).text();
    expect(onDomain).not.toContain('evil.example');
    expect(onDomain).toContain(`<link rel="self" href="https://${CUSTOM_DOMAIN}/feed.atom"/>`);
    const bare = await (await get('/status/status/feed.atom', hostile)).text();
    expect(bare).not.toContain('evil.example');
    expect(bare).toContain(`<id>urn:checkwall:dashboard:${TEST_ACCOUNT}:public</id>`);
    expect(bare).toContain('<link rel="self" href="/status/status/feed.atom"/>');
    const page = await (await get('/status/board', hostile)).text();
    expect(page).not.toContain('evil.example');
  });

  it('links under publicUrl when there is no custom domain', () => {
    const dashboard = { id: 'd', customUrl: 'a b', customDomain: null };
    expect(feedLinks('acme', dashboard, '/status/a%20b', 'https://mon.example/x/')).toEqual({
      id: 'urn:checkwall:dashboard:acme:d',
      self: 'https://mon.example/x/status/a%20b/feed.atom',
      page: 'https://mon.example/x/status/a%20b',
    });
    expect(feedLinks('acme', dashboard, '', undefined).page).toBe('/');
  });
});

describe('config', () => {
  it('refuses a customUrl or customDomain used by two dashboards, across accounts too', () => {
    const config = statusPageConfig();
    const dup = (over: object) => ({ id: 'dup', name: 'Dup', customUrl: 'dup', ...over });
    const raw = JSON.parse(JSON.stringify(config));
    raw.accounts[1].dashboards = [
      dup({ customUrl: 'board' }),
      dup({ customDomain: `https://${CUSTOM_DOMAIN.toUpperCase()}/` }),
    ];
    expect(() => validateConfig(raw, 'cfg.yaml')).toThrow(
      /accounts\.1\.dashboards\.0\.customUrl: "board" is already the customUrl of accounts\.0\.dashboards\.2[\s\S]*accounts\.1\.dashboards\.1\.customDomain: "status\.example\.test" is already the customDomain of accounts\.0\.dashboards\.2/,
    );
  });
});
