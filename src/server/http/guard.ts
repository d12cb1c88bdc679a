// Who a request is, decided in onRequest hooks: before its body is read, so a
// stranger's post of megabytes is refused having cost a header parse (docs/security.md).
// Every /v1/ route needs an account's credentials unless it is one of OPEN's:
// a route added later is closed until it says otherwise.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { roleAllows, type Role } from '../../api/schemas/actions.js';
import type { Accounts, KeyHolder, KeyIdentity } from '../config/accounts.js';
import type { AccountConfig, HttpConfig } from '../config/schema.js';
import { hostName } from '../../domain/host-name.js';
import { authenticate, refuseUnread, unauthorized } from './auth.js';
import { HttpError } from './errors.js';
import { createPublicAnswers, type StrangerLimits } from './rate-limits.js';
import { routeRole } from './route-roles.js';

/** Routes that take no account credentials: their own token, or none. */
const PUBLIC_READ = '/v1/public/';
const HEARTBEAT = '/v1/heartbeats/';
const RUNNER = '/v1/runner/';
/** The service's own health, for probes that hold no key (docs/health.md): limited per address as public reads. */
const PROBES = new Set(['/v1/health', '/v1/ready']);
/** Routes outside /v1/ that take an account's key, the key alone naming the account (Prometheus's scrape). */
const KEY_ALONE = new Set(['/metrics']);

export interface GuardDeps {
  accounts: Accounts;
  limits: StrangerLimits;
  /** The per-key limit of requests with valid credentials; throws 429. */
  limitRate(keyId: string): void;
  settings(): HttpConfig;
  now(): number;
}

const holderOfRequest = new WeakMap<FastifyRequest, KeyHolder>();

function holderOf(req: FastifyRequest): KeyHolder {
  const holder = holderOfRequest.get(req);
  if (!holder) throw unauthorized();
  return holder;
}

/** The account the onRequest hook authenticated (a 401 if the hook did not run: no account, no answer). */
export function accountOf(req: FastifyRequest): AccountConfig {
  return holderOf(req).account;
}

/** The name and role of the key the request came with (never the key). */
export function keyOf(req: FastifyRequest): KeyIdentity {
  return holderOf(req).key;
}

/** The 403 of a key whose role is not enough, naming the role needed. */
export const roleRefused = (needs: Role, has: Role) =>
  new HttpError(
    403,
    `this API key's role (${has}) may not do this: it needs the ${needs} role (docs/roles.md)`,
    [],
    {},
    { requiredRole: needs },
  );

/**
 * Throws the 403 unless the request's key has `role` or more. The guard already
 * applies each route's role from route-roles.ts; this is for a finer decision
 * inside a route.
 */
export function requireRole(req: FastifyRequest, role: Role): void {
  const { key } = holderOf(req);
  if (!roleAllows(key.role, role)) throw roleRefused(role, key.role);
}

/** Whether a route takes an account's key, and so needs a role in route-roles.ts. */
const takesKey = (url: string) =>
  KEY_ALONE.has(url) ||
  (url.startsWith('/v1/') &&
    !url.startsWith(RUNNER) &&
    !url.startsWith(HEARTBEAT) &&
    !url.startsWith(PUBLIC_READ) &&
    !PROBES.has(url));

export function registerGuards(app: FastifyInstance, deps: GuardDeps): void {
  const { accounts, limits } = deps;
  const hosts = allowedHosts(accounts, deps.settings);
  const publicAnswers = createPublicAnswers(deps.now);

  // Every account route declares its role in route-roles.ts, or the service does not start.
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods)
      if (takesKey(route.url) && !routeRole(method, route.url))
        throw new Error(`${method} ${route.url} has no role in src/server/http/route-roles.ts`);
  });

  app.addHook('onRequest', async (req, reply) => {
    if (!hosts(req.host)) {
      refuseUnread(req, reply);
      throw new HttpError(
        421,
        'this service does not answer for the host this request names (http.allowedHosts)',
      );
    }
    const route = req.routeOptions.url;
    // No route: the 404 handler answers, and reads no body.
    const keyAlone = route !== undefined && KEY_ALONE.has(route);
    if (route === undefined || (!route.startsWith('/v1/') && !keyAlone) || route.startsWith(RUNNER)) return;
    if (route.startsWith(HEARTBEAT)) return heartbeat(req, reply);
    if (PROBES.has(route)) return limits.publicRead(req);
    if (route.startsWith(PUBLIC_READ)) {
      await limits.publicRead(req);
      if (publicAnswers.serve(req, reply)) return reply;
      return;
    }
    let holder: KeyHolder;
    try {
      const { keyId, ...found } = authenticate(accounts, req, keyAlone);
      deps.limitRate(keyId);
      holder = found;
    } catch (error) {
      refuseUnread(req, reply);
      if (error instanceof HttpError && error.statusCode !== 429) await limits.failed(req);
      throw error;
    }
    holderOfRequest.set(req, holder);
    // A known key short of the route's role: refused before the body, and not a failed authentication.
    const needs = routeRole(req.method, route) ?? 'admin';
    if (!roleAllows(holder.key.role, needs)) {
      refuseUnread(req, reply);
      throw roleRefused(needs, holder.key.role);
    }
  });

  // The public read's answer is kept a moment for the strangers who ask next.
  // A callback hook: every answer passes here, and an async one would cost each a promise.
  app.addHook('onSend', (req, reply, payload, done) => {
    if (req.routeOptions.url?.startsWith(PUBLIC_READ) && req.method === 'GET')
      publicAnswers.keep(req, reply, payload);
    done(null, payload);
  });

  /** An unknown heartbeat token is a failed authentication: answered 404 before its body is read. */
  async function heartbeat(req: FastifyRequest, reply: FastifyReply) {
    const { token } = req.params as { token?: string };
    if (token !== undefined && accounts.heartbeat(token)) return;
    refuseUnread(req, reply);
    await limits.failed(req);
    throw new HttpError(404, 'no heartbeat check has that token');
  }
}

/** Whether a Host header is one the service answers: any, unless http.allowedHosts names some. */
function allowedHosts(accounts: Accounts, settings: () => HttpConfig) {
  // The dashboards' custom domains, gathered again only when a reload replaced the accounts.
  let seen: readonly AccountConfig[] | undefined;
  let domains = new Set<string>();
  return (host: string | undefined): boolean => {
    const allowed = settings().allowedHosts;
    if (!allowed) return true;
    if (!host) return false;
    const all = accounts.all();
    if (all !== seen) {
      seen = all;
      domains = new Set(
        all.flatMap((a) => a.dashboards.flatMap((d) => (d.customDomain ? [hostName(d.customDomain)] : []))),
      );
    }
    const wanted = host.toLowerCase();
    const name = hostName(wanted);
    return allowed.some((h) => h === wanted || h === name) || domains.has(name);
  };
}
