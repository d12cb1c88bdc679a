// GET /metrics for Prometheus (docs/metrics.md): with a key of the read role as a
// bearer token, the key's account's series (the guard authenticates it, the key alone
// naming the account); and, when the config names `metrics.port`, a listener of its
// own answering every account's series with no key, for a Prometheus beside the service.
import { createServer, type Server } from 'node:http';
import { isIP, type AddressInfo } from 'node:net';
import { hostName } from '../../domain/host-name.js';
import { sanitize } from '../../domain/sanitize.js';
import type { HttpConfig } from '../config/schema.js';
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

/**
 * Whether the sidecar answers a request naming this Host: those of `http.allowedHosts` when
 * the config lists them; else `localhost` and any IP literal (loopback included). A DNS
 * rebinding page needs a name of its own, and Prometheus may scrape by address.
 */
export function metricsHostAllowed(
  host: string | undefined,
  allowed: readonly string[] | undefined,
): boolean {
  if (!host) return false;
  const wanted = host.toLowerCase();
  const name = hostName(wanted);
  if (allowed) return allowed.some((h) => h === wanted || h === name);
  return name === 'localhost' || isIP(name.replace(/^\[(.*)\]$/, '$1')) !== 0;
}

/** Each refused Host once (sanitised, and only the first 100 kept in mind): a flood is not a log. */
function refusedOnce(log: (line: string) => void) {
  const seen = new Set<string>();
  return (host: string | undefined) => {
    const value = sanitize(host ?? '(none)').slice(0, 200);
    if (seen.has(value) || seen.size >= 100) return;
    seen.add(value);
    log(`the metrics port refused Host "${value}": not localhost, an IP address or in http.allowedHosts`);
  };
}

/** The sidecar port: GET /metrics of every account, nothing else. */
export async function listenMetrics(
  scrape: Scrape,
  where: { host: string; port: number },
  guard: { http: () => HttpConfig; log: (line: string) => void },
): Promise<MetricsListener> {
  const refused = refusedOnce(guard.log);
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    const answer = (status: number, body: string, type: string) => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    if (!metricsHostAllowed(req.headers.host, guard.http().allowedHosts)) {
      refused(req.headers.host);
      const message = 'this port does not answer for the host this request names (http.allowedHosts)';
      return answer(421, JSON.stringify(errorBody(421, message)), 'application/json; charset=utf-8');
    }
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
