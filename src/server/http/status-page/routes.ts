// The public status page (docs/status-page.md): GET /status/{customUrl}, its stylesheet,
// script, custom CSS, badges and incident feed; on a dashboard's customDomain
// the same at `/` (the URL is rewritten to /status/{slug}/… before routing, so
// that domain reaches nothing else, never /v1). Every refusal (an unknown or
// private slug, a check not on the dashboard, a read past the per-address
// limit) gets the same 404 page, byte for byte: none tells a stranger which
// dashboards exist.
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Dashboard, PublicCheckStatus } from '../../../api/schemas/index.js';
import type { Accounts } from '../../config/accounts.js';
import type { AccountConfig } from '../../config/schema.js';
import { bucketOf, DAY_MS, HOUR_MS } from '../../storage/history.js';
import { acceptsGzip } from '../accept-encoding.js';
import { etagOf, matchesIfNoneMatch } from '../etag.js';
import { hostName } from '../../../domain/host-name.js';
import type { StrangerLimits } from '../rate-limits.js';
import { STATUS_CSS, STATUS_JS } from './assets.js';
import { responseTimeBadge, statusBadge, uptimeBadge } from './badges.js';
import { createPageHistory, gatherPage, publicCheck, type DataDeps } from './data.js';
import { renderFeed } from './feed.js';
import { feedLinks } from './links.js';
import { NOT_FOUND_PAGE, renderPage } from './page.js';

export const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: https:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export interface StatusPageDeps extends DataDeps {
  accounts: Accounts;
  limits: StrangerLimits;
  /** The config's publicUrl as it is now: the feed's links (links.ts); absent: relative ones. */
  publicUrl?: (() => string | undefined) | undefined;
}

const PREFIX = '/status/';

/**
 * The URL rewrite of fastify's `rewriteUrl`: a request whose Host (X-Forwarded-Host
 * behind a trusted proxy) is a dashboard's customDomain is routed under that
 * dashboard's /status/{slug}; every other request is left as it is.
 */
export function customDomainRewrite(accounts: Accounts, trustProxy: boolean) {
  let seen: readonly AccountConfig[] | undefined;
  let slugs = new Map<string, string>();
  return (req: IncomingMessage): string => {
    const url = req.url ?? '/';
    const forwarded = trustProxy ? req.headers['x-forwarded-host'] : undefined;
    const raw =
      (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim() || req.headers.host;
    if (!raw) return url;
    const all = accounts.all();
    if (all !== seen) {
      seen = all;
      slugs = new Map(
        all.flatMap((a) =>
          a.dashboards.flatMap((d) =>
            d.customDomain ? [[hostName(d.customDomain), d.customUrl] as const] : [],
          ),
        ),
      );
    }
    const slug = slugs.get(hostName(raw));
    if (slug === undefined) return url;
    const query = url.indexOf('?');
    const path = query === -1 ? url : url.slice(0, query);
    const rest = query === -1 ? '' : url.slice(query);
    return `${PREFIX}${slug}${path === '/' ? '' : path}${rest}`;
  };
}

interface RenderedPage {
  body: string;
  etag: string;
  gzipped: Buffer;
  /** Another ETag for the other bytes: a cache holding one form never answers 304 for the other. */
  gzipEtag: string;
}

async function renderedPage(body: string): Promise<RenderedPage> {
  const etag = etagOf(body);
  return { body, etag, gzipped: await gzipped(body), gzipEtag: `${etag.slice(0, -1)}-gz"` };
}

/** How long a rendered page is shared by the visitors who ask for it. */
export const PAGE_KEPT_MS = 1_000;

const gzipped = promisify(gzip);

function secure(reply: FastifyReply): FastifyReply {
  return reply
    .header('content-security-policy', CONTENT_SECURITY_POLICY)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer');
}

function notFound(reply: FastifyReply): FastifyReply {
  return secure(reply)
    .code(404)
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(NOT_FOUND_PAGE);
}

/** Sends a body with its ETag (given, or of its bytes), or 304 when the client holds it. */
function send(
  req: FastifyRequest,
  reply: FastifyReply,
  type: string,
  body: string | Buffer,
  maxAge = 0,
  etag = etagOf(body),
): FastifyReply {
  secure(reply)
    .header('etag', etag)
    .header('cache-control', maxAge > 0 ? `public, max-age=${maxAge}` : 'no-cache');
  if (matchesIfNoneMatch(req.headers['if-none-match'], etag)) return reply.code(304).send();
  return reply.type(type).send(body);
}

interface Found {
  account: AccountConfig;
  dashboard: Dashboard;
  /** Where the page's own files are: /status/{slug}, or `` on its custom domain. */
  base: string;
}

export function registerStatusPage(app: FastifyInstance, deps: StatusPageDeps): void {
  const { accounts, limits } = deps;
  const history = createPageHistory(deps.now);

  /** The public dashboard of the request, counted against the address's public reads; undefined: answer 404. */
  async function board(req: FastifyRequest): Promise<Found | undefined> {
    try {
      await limits.publicRead(req);
    } catch {
      return undefined;
    }
    const { slug } = req.params as { slug: string };
    const found = accounts.publicDashboard(slug);
    if (!found) return undefined;
    const rewritten = req.originalUrl !== req.url;
    return { ...found, base: rewritten ? '' : `${PREFIX}${slug}` };
  }

  // A page is rendered at most once a second for each dashboard and address form: the
  // visitors of that second share it (as the public JSON read's answers are shared),
  // gzipped once for the browsers that take it (200 checks' bars are megabytes of HTML).
  const rendered = new Map<string, { at: number; page: Promise<RenderedPage> }>();
  app.get('/status/:slug', async (req, reply) => {
    const found = await board(req);
    if (!found) return notFound(reply);
    const key = `${found.account.id}\0${found.dashboard.id}\0${found.base}`;
    const now = deps.now();
    let kept = rendered.get(key);
    if (!kept || now - kept.at >= PAGE_KEPT_MS || now < kept.at) {
      const page = gatherPage(deps, found.account, found.dashboard, history).then((data) =>
        renderedPage(renderPage(data, { base: found.base })),
      );
      kept = { at: now, page };
      rendered.delete(key);
      if (rendered.size >= 1_000) rendered.delete(rendered.keys().next().value!);
      rendered.set(key, kept);
      const mine = kept;
      page.catch(() => rendered.get(key) === mine && rendered.delete(key));
    }
    const page = await kept.page;
    void reply.header('vary', 'accept-encoding');
    if (!acceptsGzip(req)) return send(req, reply, 'text/html; charset=utf-8', page.body, 0, page.etag);
    void reply.header('content-encoding', 'gzip');
    return send(req, reply, 'text/html; charset=utf-8', page.gzipped, 0, page.gzipEtag);
  });

  app.get('/status/:slug/status.css', async (req, reply) => {
    if (!(await board(req))) return notFound(reply);
    return send(req, reply, 'text/css; charset=utf-8', STATUS_CSS, 300);
  });
  app.get('/status/:slug/status.js', async (req, reply) => {
    if (!(await board(req))) return notFound(reply);
    return send(req, reply, 'text/javascript; charset=utf-8', STATUS_JS, 300);
  });
  app.get('/status/:slug/custom.css', async (req, reply) => {
    const found = await board(req);
    const css = found?.dashboard.configuration.customCSS;
    if (!css) return notFound(reply);
    return send(req, reply, 'text/css; charset=utf-8', css, 60);
  });

  app.get('/status/:slug/feed.atom', async (req, reply) => {
    const found = await board(req);
    if (!found || !found.dashboard.configuration.showIncidents) return notFound(reply);
    const data = await gatherPage(deps, found.account, found.dashboard, history);
    const links = feedLinks(found.account.id, found.dashboard, found.base, deps.publicUrl?.());
    return send(req, reply, 'application/atom+xml; charset=utf-8', renderFeed(data, links));
  });

  /** The check of a badge: on the dashboard, or undefined (404). */
  async function badgeCheck(
    req: FastifyRequest,
  ): Promise<{ found: Found; check: PublicCheckStatus } | undefined> {
    const found = await board(req);
    if (!found) return undefined;
    const { checkId } = req.params as { checkId: string };
    const check = await publicCheck(deps, found.account, found.dashboard, checkId);
    return check && { found, check };
  }
  const svg = 'image/svg+xml; charset=utf-8';

  app.get('/status/:slug/badges/:checkId/status.svg', async (req, reply) => {
    const hit = await badgeCheck(req);
    if (!hit) return notFound(reply);
    return send(req, reply, svg, statusBadge(hit.check), 60);
  });
  app.get('/status/:slug/badges/:checkId/response-time.svg', async (req, reply) => {
    const hit = await badgeCheck(req);
    if (!hit) return notFound(reply);
    return send(req, reply, svg, responseTimeBadge(hit.check.performance.averageResponseTime), 60);
  });
  const PERIODS = { '24h': DAY_MS, '7d': 7 * DAY_MS, '30d': 30 * DAY_MS } as const;
  app.get('/status/:slug/badges/:checkId/uptime.svg', async (req, reply) => {
    const hit = await badgeCheck(req);
    const asked = (req.query as { period?: unknown }).period ?? '24h';
    // Own names only: `in` would take `constructor` and `toString` for periods (prototype-names.test.ts).
    if (!hit || typeof asked !== 'string' || !Object.hasOwn(PERIODS, asked)) return notFound(reply);
    const period = asked as keyof typeof PERIODS;
    const now = deps.now();
    // Hourly roll-ups are kept 8 days: 24h and 7d read them, 30d the daily ones.
    const granularity = period === '30d' ? 'day' : 'hour';
    const from = bucketOf(now - PERIODS[period], granularity) + (granularity === 'hour' ? HOUR_MS : DAY_MS);
    const totals = await deps.storage.historyTotals(hit.found.account.id, hit.check.checkId, {
      from,
      to: now,
      granularity,
    });
    const availability = totals.runs === 0 ? null : ((totals.runs - totals.failures) / totals.runs) * 100;
    return send(req, reply, svg, uptimeBadge(period, availability), 60);
  });

  // Anything else under /status/ (and anything on a custom domain but the above): the same 404,
  // counted against the same limit.
  app.get('/status/*', async (req, reply) => {
    await board(req);
    return notFound(reply);
  });
}
