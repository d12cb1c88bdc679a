// The fastify app: routes, the error contract, and a 404 in the same shape.
import Fastify, { type FastifyInstance } from 'fastify';
import { errorBody, handleError } from './errors.js';
import { registerRoutes, type RouteDeps } from './routes.js';
import { registerRunnerRoutes, type RunnerRouteDeps } from './runner-routes.js';

export const BODY_LIMIT_BYTES = 64 * 1024;

export function buildApp(deps: RouteDeps, runners?: RunnerRouteDeps): FastifyInstance {
  const app = Fastify({ logger: false, bodyLimit: BODY_LIMIT_BYTES, forceCloseConnections: true });
  // Bodies are JSON only: anything else is a 415, not a string that fails validation.
  app.removeContentTypeParser('text/plain');
  app.setErrorHandler(handleError);
  app.setNotFoundHandler((req, reply) => {
    void reply.code(404).send(errorBody(404, `no route ${req.method} ${req.url.split('?')[0]}`));
  });
  registerRoutes(app, deps);
  if (runners) registerRunnerRoutes(app, runners);
  return app;
}
