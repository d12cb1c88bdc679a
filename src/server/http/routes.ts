// The six endpoints of spec section 4, the public dashboard read and heartbeat
// pings. Every query, path parameter and body goes through a shared schema.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  CheckResultsQuerySchema,
  CheckStatusesQuerySchema,
  DashboardsQuerySchema,
  MetricsCheckTypeSchema,
  MetricsQuerySchema,
  PathParamSchema,
  type CheckStatus,
} from '../../api/schemas/index.js';
import type { Accounts } from '../config/accounts.js';
import type { Alerting } from '../alerting/index.js';
import { metricCatalogue } from './catalogue.js';
import type { AccountConfig } from '../config/schema.js';
import { runbookFields, runbookOf } from '../config/runbook-keys.js';
import type { StatusEngine } from '../status/engine.js';
import type { Health } from '../status/health.js';
import type { Clock } from '../../domain/clock.js';
import { PERIOD_MS } from '../../domain/period.js';
import { maskResultRequest } from '../../domain/mask.js';
import type { Storage } from '../storage/types.js';
import { registerAlertRoutes } from './alert-routes.js';
import { createAudit } from './audit.js';
import { registerKeyRoutes } from './key-routes.js';
import { registerActionRoutes, type ActionRouteDeps } from './action-routes.js';
import { accountOf, keyOf } from './guard.js';
import { registerHeartbeatRoutes } from './heartbeat-routes.js';
import type { HeartbeatSignals } from '../heartbeats/signals.js';
import { registerHistoryRoutes } from './history-routes.js';
import { registerMaintenanceRoutes } from './maintenance-routes.js';
import type { Maintenance } from '../maintenance/windows.js';
import { createPageMemo, renderPage, sendPage } from './etag.js';
import { HttpError, parseOr400 } from './errors.js';
import { offsetOf, pageMeta, slice } from './paging.js';
import { publicChecks, publicMaintenance } from './status-page/data.js';
import { publicDashboard } from './public-projection.js';
import { endOf } from './time-range.js';
import { createListCache, refreshWhileRead } from './list-cache.js';
import { buildList, type BuiltList } from './status-list.js';
import { registerMetricsRoute } from './metrics-routes.js';
import type { Scrape } from '../metrics/scrape.js';
import { statusWithHold, withDependencyHolds } from '../status/dependency-held.js';
import { withLocationHolds } from '../status/location-held.js';
import type { LocationOutages } from '../outages/index.js';

export interface RouteDeps {
  accounts: Accounts;
  storage: Storage;
  engine: StatusEngine;
  alerting: Alerting;
  clock: Clock;
  /** The per-key limit of requests with valid credentials (auth.ts createRateLimiter); throws 429. */
  limitRate: (keyId: string) => void;
  /** The service's own health: sent with every statuses page, and to probes (health-routes.ts). */
  health: Health;
  /** Run now, pause and resume (action-routes.ts); absent: not offered (tests of the reads alone). */
  actions?: Pick<ActionRouteDeps, 'scheduler' | 'pauses' | 'maintenance' | 'runnerConnected'> | undefined;
  /** Maintenance windows (docs/maintenance.md); absent: not offered (tests of the reads alone). */
  maintenance?: Maintenance | undefined;
  /** GET /metrics (metrics/scrape.ts); absent: not offered. */
  metrics?: Scrape | undefined;
  /** A heartbeat job's signals (heartbeats/signals.ts); absent: a ping only records its time. */
  heartbeats?: HeartbeatSignals | undefined;
  /** The config's publicUrl as it is now: the status page feed's links (status-page/links.ts). */
  publicUrl?: (() => string | undefined) | undefined;
  /** Locations declared down (outages/index.ts); absent: none ever is. */
  outages?: Pick<LocationOutages, 'list' | 'holdAt'> | undefined;
}

// Answers read lately are built again ahead of their requests (list-cache.ts).
const LIST_REFRESH_EVERY_MS = 250;
const CheckIdParams = z.object({ checkId: PathParamSchema });
const ScreenshotParams = CheckIdParams.extend({ resultId: PathParamSchema });

export function registerRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const { accounts, storage, engine, clock } = deps;
  const now = clock.now;
  // Authenticated and limited per key in an onRequest hook, before the body (guard.ts).
  const auth = accountOf;
  const present = (account: AccountConfig, statuses: readonly CheckStatus[]) =>
    statuses.map((s) => engine.present(account.id, s));

  // The answer is built from the statuses the engine already holds (its snapshot):
  // a request filters, sorts and pages; only the page's schedules are read fresh.
  const lists = createListCache<BuiltList>(engine.version, now);
  const refresher = refreshWhileRead(lists, clock, LIST_REFRESH_EVERY_MS);
  app.addHook('onClose', (_app, done) => {
    refresher.stop();
    done();
  });
  const pages = createPageMemo<BuiltList>();
  /** What holds each check's pages: a maintenance window, then a broken location, then a failing parent. */
  const withHolds = (account: AccountConfig, statuses: readonly CheckStatus[]) => {
    const located = withLocationHolds(statuses, (l) => deps.outages?.holdAt(account.id, l));
    return withDependencyHolds(account, located);
  };
  app.get('/v1/check-statuses', async (req, reply) => {
    const account = auth(req);
    const q = parseOr400(CheckStatusesQuerySchema, req.query, 'query');
    refresher.touch();
    const answer = await lists.read(account.id, q, async (previous) => {
      // The account as configured now: the cache builds this answer again later, maybe after a reload.
      const current = accounts.byId(account.id) ?? account;
      return buildList(withHolds(current, await engine.list(current, q.period)), q, current, previous);
    });
    // The health's report is the same object while it holds: a new one is a new page (and ETag).
    const service = deps.health.report();
    const page = pages(answer, `${q.page}/${q.limit}/${q.includeSummary}`, service, () => {
      const meta: Record<string, unknown> = pageMeta(q.page, q.limit, answer.chosen.length);
      if (q.includeSummary) meta['summary'] = answer.summary;
      meta['service'] = service;
      if (deps.outages) meta['locationOutages'] = deps.outages.list(account);
      return { data: present(account, slice(answer.chosen, q.page, q.limit)), meta };
    });
    return sendPage(req, reply, page);
  });

  app.get('/v1/check-results/:checkId', async (req, reply) => {
    const account = auth(req);
    const { checkId } = parseOr400(CheckIdParams, req.params, 'path');
    const q = parseOr400(CheckResultsQuerySchema, req.query, 'query');
    const check = accounts.check(account, checkId);
    if (!check) throw new HttpError(404, `no check "${checkId}" in this account`);
    const { from, to } = timeframe(q, now());
    const query = {
      accountId: account.id,
      checkId,
      from,
      to,
      status: q.status,
      location: q.location,
      triggeredBy: q.triggeredBy,
      responseTimeMin: q.responseTimeMin,
      responseTimeMax: q.responseTimeMax,
      sortBy: q.sortBy,
      sortOrder: q.sortOrder,
      offset: offsetOf(q),
      limit: q.limit,
    };
    const found = await storage.queryResults(query);
    const book = runbookFields(runbookOf(check, account.groups));
    // Results stored before credentials were masked are masked as they are served.
    const items = found.items.map((r) => ({ ...maskResultRequest(r), ...book }));
    const total = found.total;
    const meta: Record<string, unknown> = {
      checkId,
      checkName: check.name,
      ...pageMeta(q.page, q.limit, total),
      hasMore: q.page * q.limit < total,
      timeframe: { from: new Date(from).toISOString(), to: new Date(to).toISOString() },
    };
    if (q.includeSummary) meta['summary'] = await storage.summarizeResults(query);
    // DECISION (docs/decisions.md#shapes): the ETag leaves out the timeframe, which a rolling period moves every
    // millisecond; the results, their paging and summary decide whether the list changed.
    const { timeframe: _moving, ...lasting } = meta;
    return sendPage(req, reply, renderPage({ data: items, meta }, { data: items, meta: lasting }));
  });

  // DECISION: a browser run's screenshot is its own resource (image/png), so the
  // result lists stay small JSON; 404 when the run kept none.
  app.get('/v1/check-results/:checkId/:resultId/screenshot', async (req, reply) => {
    const account = auth(req);
    const { checkId, resultId } = parseOr400(ScreenshotParams, req.params, 'path');
    if (!accounts.check(account, checkId)) throw new HttpError(404, `no check "${checkId}" in this account`);
    const png = await storage.screenshot(account.id, checkId, resultId);
    if (!png) throw new HttpError(404, `no screenshot for result "${resultId}" of check "${checkId}"`);
    return reply.type('image/png').header('cache-control', 'private, max-age=86400').send(png);
  });

  app.get('/v1/dashboards', (req, reply) => {
    const account = auth(req);
    const q = parseOr400(DashboardsQuerySchema, req.query, 'query');
    const chosen = accounts
      .dashboards(account)
      .filter(
        (d) =>
          (q.isPrivate === undefined || d.isPrivate === q.isPrivate) &&
          (!q.tags || q.tags.some((t) => d.tags.includes(t))),
      );
    const body = { data: slice(chosen, q.page, q.limit), meta: pageMeta(q.page, q.limit, chosen.length) };
    return sendPage(req, reply, renderPage(body));
  });

  const audit = createAudit(storage, clock);
  registerAlertRoutes(app, { ...deps, now, auth, audit });
  registerHistoryRoutes(app, { ...deps, now, auth });
  registerKeyRoutes(app, { storage });
  if (deps.maintenance)
    registerMaintenanceRoutes(app, { accounts, maintenance: deps.maintenance, clock, audit });
  if (deps.actions)
    registerActionRoutes(app, {
      ...deps,
      ...deps.actions,
      // The pause and resume answers show the check's hold as the list does.
      engine: { statusOf: (account, check) => statusWithHold(account, check, engine.statusOf) },
      audit,
      keyName: (req) => keyOf(req).name,
    });

  if (deps.metrics) registerMetricsRoute(app, deps.metrics);

  app.get('/v1/analytics/metrics/:checkType', (req) => {
    auth(req);
    const { checkType } = parseOr400(z.object({ checkType: MetricsCheckTypeSchema }), req.params, 'path');
    const q = parseOr400(MetricsQuerySchema, req.query, 'query');
    return metricCatalogue(checkType, q);
  });

  // No credentials: each check goes out through the public projection (public-projection.ts).
  app.get('/v1/public/dashboards/:customUrl', async (req, reply) => {
    const { customUrl } = parseOr400(z.object({ customUrl: PathParamSchema }), req.params, 'path');
    // It takes none; and its answer is kept a second per URL (guard.ts), which `?r=<random>` would skip.
    parseOr400(z.strictObject({}), req.query, 'query');
    const found = accounts.publicDashboard(customUrl);
    if (!found) throw new HttpError(404, `no public dashboard at "${customUrl}"`);
    const data = { storage, engine, now, maintenance: deps.maintenance };
    const checks = await publicChecks(data, found.account, found.dashboard);
    // DECISION (docs/status-page.md): the windows the status page shows, never their reason.
    const maintenance = publicMaintenance(data, found.account, found.dashboard).map((w) => ({
      name: w.name,
      startsAt: new Date(w.startsAt).toISOString(),
      endsAt: new Date(w.endsAt).toISOString(),
      state: w.state,
      checkIds: w.checkIds,
    }));
    return sendPage(
      req,
      reply,
      renderPage({ data: { dashboard: publicDashboard(found.dashboard), checks, maintenance } }),
    );
  });

  registerHeartbeatRoutes(app, {
    accounts,
    heartbeats: deps.heartbeats,
    recordPing: (a, c, at) => storage.recordPing(a, c, at),
    now,
  });
}

function timeframe(q: z.output<typeof CheckResultsQuerySchema>, now: number): { from: number; to: number } {
  if (q.period) return { from: now - PERIOD_MS[q.period], to: now };
  const to = q.to ? endOf(q.to) : now;
  const from = q.from ? Date.parse(q.from) : to - PERIOD_MS['24h'];
  return { from, to };
}
