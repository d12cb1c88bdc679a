// The HTTP app (the six endpoints, actions, the runner protocol, status pages) and the
// /metrics sidecar, listening.
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../http/app.js';
import { createRateLimiter } from '../http/auth.js';
import { listenMetrics, type MetricsListener } from '../http/metrics-routes.js';
import { createClaims } from '../schedule/claims.js';
import type { Base } from './base.js';
import type { Closers } from './closers.js';
import type { Heartbeats } from './heartbeats.js';
import type { Holds } from './holds.js';
import { metricsScrape } from './metrics.js';
import type { Scrape } from '../metrics/scrape.js';
import type { RunSide } from './run-side.js';
import type { StatusSide } from './status-side.js';

// A claimed remote run is given to another runner after this: past a check's longest timeout (120 s).
const RUNNER_LEASE_MS = 150_000;

export interface Listening {
  app: FastifyInstance;
  url: string;
  sidecar: MetricsListener | undefined;
}

/** Builds the app and listens; what it opened is closed through `closers`, also when listening fails. */
export async function listen(
  base: Base,
  parts: { run: RunSide; status: StatusSide; holds: Holds; heartbeats: Heartbeats },
  closers: Closers,
): Promise<Listening> {
  const scrape = metricsScrape(base, parts.run, parts.status);
  closers.add('the metrics scrape', () => scrape.close());
  // Long polls of remote runners end when the service closes, before the app waits for them.
  const leaving = new AbortController();
  const app = await buildApp(...appDeps(base, parts, scrape, leaving.signal));
  closers.add('the HTTP app', () => app.close());
  closers.add('the runners’ long polls', () => leaving.abort());
  const { opts } = base;
  const host0 = opts.host ?? '127.0.0.1';
  try {
    await app.listen({ host: host0, port: opts.port ?? 0 });
  } catch (error) {
    throw new Error(`cannot listen on ${host0}:${opts.port ?? 0}: ${listenProblem(error)}`);
  }
  const { address, port } = app.server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  const where = opts.config.metrics;
  let sidecar: MetricsListener | undefined;
  try {
    const guard = { http: () => base.live.config.http, log: base.log };
    sidecar = where ? await listenMetrics(scrape, where, guard) : undefined;
  } catch (error) {
    throw new Error(`cannot listen for metrics on ${where!.host}:${where!.port}: ${listenProblem(error)}`);
  }
  if (sidecar) closers.add('the metrics listener', () => sidecar.close());
  return { app, url: `http://${host}:${port}`, sidecar };
}

function appDeps(
  { opts, clock, storage, accounts, live, log }: Base,
  {
    run,
    status,
    holds,
    heartbeats,
  }: { run: RunSide; status: StatusSide; holds: Holds; heartbeats: Heartbeats },
  scrape: Scrape,
  closing: AbortSignal,
): Parameters<typeof buildApp> {
  const limit = opts.rateLimit ?? { perSecond: 50, burst: 500 };
  return [
    {
      accounts,
      storage,
      engine: status.engine,
      alerting: status.alerting,
      clock,
      limitRate: createRateLimiter(limit.perSecond, limit.burst, clock.now),
      health: status.health,
      maintenance: holds.maintenance,
      metrics: scrape,
      heartbeats: heartbeats.signals,
      publicUrl: () => live.config.publicUrl,
      outages: status.outages,
      actions: {
        scheduler: run.scheduler,
        pauses: holds.pauses,
        maintenance: holds.maintenance,
        runnerConnected: (accountId, locationId) => run.hub.connected(accountId, locationId),
      },
    },
    {
      hub: run.hub,
      claims: createClaims({
        hub: run.hub,
        queue: storage,
        complete: status.complete,
        skipped: (runs) => run.scheduler.noteSkipped(runs),
        check: (account, checkId) => accounts.check(account, checkId),
        leaseMs: opts.runnerLeaseMs ?? RUNNER_LEASE_MS,
        clock,
        closing,
      }),
      maxStoredBodyBytes: () => live.config.maxStoredBodyBytes,
      log,
    },
    () => live.config.http,
  ];
}

function listenProblem(error: unknown): string {
  const code = (error as { code?: string }).code;
  if (code === 'EADDRINUSE') return 'the address is already in use';
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') return 'no such address on this machine';
  if (code === 'EACCES') return 'permission denied (ports below 1024 need privileges)';
  return (error as Error).message;
}
