// GET /metrics for Prometheus (docs/metrics.md): with a key of the read role as a
// bearer token, the key's account's series (the guard authenticates it, the key alone
// naming the account); and, when the config names `metrics.port`, a listener of its
// own answering every account's series with no key, for a Prometheus beside the service.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { acceptsGzip } from './accept-encoding.js';
import { accountOf } from './guard.js';
import { errorBody } from './errors.js';
import type { Scrape } from '../metrics/scrape.js';

export function registerMetricsRoute(app: FastifyInstance, scrape: Scrape): void {
  app.get('/metrics', async (req, reply) => {
    void reply.type(scrape.contentType).header('cache-control', 'no-store').header('vary', 'accept-encoding');
    const gzipped = acceptsGzip(req);
    const body = await scrape.body(accountOf(req), gzipped);
    // Only on the body itself: an error answered instead is plain JSON.
    if (gzipped) void reply.header('content-encoding', 'gzip');
    return reply.send(body);
  });
}

export interface MetricsListener {
  url: string;
  close(): Promise<void>;
}

/** The sidecar port: GET /metrics of every account, nothing else. */
export async function listenMetrics(
  scrape: Scrape,
  where: { host: string; port: number },
): Promise<MetricsListener> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    const answer = (status: number, body: string, type: string) => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD'))
      return answer(
        404,
        JSON.stringify(errorBody(404, `no route ${req.method} ${path}: this port serves GET /metrics`)),
        'application/json; charset=utf-8',
      );
    const gzipped = acceptsGzip(req);
    scrape.body(null, gzipped).then(
      (body) => {
        res.writeHead(200, {
          'content-type': scrape.contentType,
          'cache-control': 'no-store',
          vary: 'accept-encoding',
          ...(gzipped ? { 'content-encoding': 'gzip' } : {}),
        });
        res.end(req.method === 'HEAD' ? undefined : body);
      },
      (error: unknown) =>
        answer(
          500,
          JSON.stringify(errorBody(500, `cannot gather the metrics: ${(error as Error).message}`)),
          'application/json; charset=utf-8',
        ),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(where.port, where.host, () => resolve());
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
