// The service's own health for probes (docs/health.md), open to all (guard.ts):
// GET /v1/health answers 200 while the process answers, saying ok or degraded (liveness);
// GET /v1/ready answers 503 while this instance cannot reach its database (readiness).
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../domain/clock.js';
import type { Health } from '../status/health.js';
import type { Storage } from '../storage/types.js';
import { errorBody } from './errors.js';

// A database that has not answered in this long is as good as unreachable to a load balancer.
const READY_WITHIN_MS = 2_000;

export function registerHealthRoutes(
  app: FastifyInstance,
  deps: { health: Health; storage: Storage; clock: Clock },
): void {
  const { health, storage, clock } = deps;
  app.get('/v1/health', async (_req, reply) => {
    void reply.header('cache-control', 'no-store');
    return { status: health.report().status };
  });
  app.get('/v1/ready', async (_req, reply) => {
    void reply.header('cache-control', 'no-store');
    const problem = await reachDatabase(storage, clock);
    if (problem === null) return { status: 'ready' };
    return reply.code(503).header('retry-after', '5').send(errorBody(503, problem));
  });
}

/** Null when the database answers a small read in time; else why not. */
async function reachDatabase(storage: Storage, clock: Clock): Promise<string | null> {
  let timer: ReturnType<Clock['setTimeout']> | undefined;
  const late = new Promise<string>((resolve) => {
    timer = clock.setTimeout(
      () => resolve(`the database did not answer in ${READY_WITHIN_MS / 1000} s`),
      READY_WITHIN_MS,
    );
  });
  // Any read will do: it needs a connection (PostgreSQL), and names no account that exists.
  const read = storage.countChannels('-').then(
    () => null,
    () => 'the database is unreachable',
  );
  try {
    return await Promise.race([read, late]);
  } finally {
    clock.clearTimeout(timer);
  }
}
