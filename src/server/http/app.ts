// The fastify app: routes, the error contract (every refusal, fastify's and
// node's included, in the one error body), and a 404 or 405 in the same shape.
import Fastify, { type FastifyInstance } from 'fastify';
import { MAX_PATH_PARAM_LENGTH } from '../../domain/path-limits.js';
import { HttpConfigSchema, type HttpConfig } from '../config/schema.js';
import { watchRoutes } from './allowed-methods.js';
import { errorBody, handleClientError, handleError, handleFrameworkError } from './errors.js';
import { registerGuards } from './guard.js';
import { registerHealthRoutes } from './health-routes.js';
import { parseJsonBody } from './json-body.js';
import { createStrangerLimits } from './rate-limits.js';
import { registerRoutes, type RouteDeps } from './routes.js';
import { registerRunnerRoutes, type RunnerRouteDeps } from './runner-routes.js';
import { customDomainRewrite, registerStatusPage } from './status-page/routes.js';

export const BODY_LIMIT_BYTES = 64 * 1024;

export async function buildApp(
  deps: RouteDeps,
  runners?: RunnerRouteDeps,
  /** The config's `http` as it is now (a reload replaces it); its defaults when absent. */
  http: () => HttpConfig = () => HttpConfigSchema.parse({}),
): Promise<FastifyInstance> {
  const app = Fastify({
    logger: false,
    bodyLimit: BODY_LIMIT_BYTES,
    forceCloseConnections: true,
    // Read once: which proxy's X-Forwarded-For to believe is settled at start.
    trustProxy: http().trustProxy,
    // A dashboard's customDomain reaches its status page and nothing else (status-page/routes.ts).
    rewriteUrl: customDomainRewrite(deps.accounts, http().trustProxy),
    // A parameter percent-encoded whole is three times its value's length: any configured
    // value reaches its route, and a longer one is a 404 (handleFrameworkError).
    routerOptions: { maxParamLength: 3 * MAX_PATH_PARAM_LENGTH },
    frameworkErrors: handleFrameworkError,
    clientErrorHandler: handleClientError,
  });
  // Bodies are JSON only: anything else is a 415, not a string that fails validation.
  app.removeContentTypeParser(['text/plain', 'application/json']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, parseJsonBody);
  app.setErrorHandler(handleError);
  const methodsOf = watchRoutes(app);
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0]!;
    const allowed = methodsOf(path);
    if (allowed.length === 0)
      return void reply.code(404).send(errorBody(404, `no route ${req.method} ${path}`));
    const message = `${path} takes ${allowed.join(', ')}, not ${req.method}`;
    void reply.code(405).header('allow', allowed.join(', ')).send(errorBody(405, message));
  });
  const limits = await createStrangerLimits(app, () => http().rateLimit, deps.clock);
  registerGuards(app, {
    accounts: deps.accounts,
    limits,
    limitRate: deps.limitRate,
    settings: http,
    now: deps.clock.now,
  });
  registerRoutes(app, deps);
  registerHealthRoutes(app, deps);
  registerStatusPage(app, { ...deps, now: deps.clock.now, limits });
  if (runners) registerRunnerRoutes(app, runners, { failed: limits.failed, remote: hasRemote(deps) });
  return app;
}

/** Whether any account has a remote location: without one, /v1/runner/ is not there (404). */
function hasRemote(deps: RouteDeps) {
  let seen: unknown;
  let remote = false;
  return () => {
    const all = deps.accounts.all();
    if (all !== seen) {
      seen = all;
      remote = all.some((a) => a.locations.some((l) => l.remote));
    }
    return remote;
  };
}
