// The demo's targets, served on 127.0.0.1 by the service process itself: each
// one behaves like a real failure mode an on-call engineer meets.
import { createServer as createHttp, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttps } from 'node:https';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { CHECKOUT_PAGE, SIGNUP_PAGE } from './pages.js';
import { DEMO_TLS_CERT, DEMO_TLS_KEY } from './tls-cert.js';

export interface DemoTargets {
  http: string; // http://127.0.0.1:PORT
  https: string;
  tcp: string; // 127.0.0.1:PORT
  refused: string; // http://127.0.0.1:PORT where nothing listens
  close(): Promise<void>;
}

/** The location the demo's regional outage takes down. */
export const OUTAGE_LOCATION = 'ap-south';

function route(req: IncomingMessage, res: ServerResponse) {
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  const send = (status: number, body: unknown, delayMs = 0) =>
    setTimeout(() => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    }, delayMs);
  const page = (html: string, delayMs: number) =>
    setTimeout(() => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html), delayMs);
  switch (path) {
    case '/shop/checkout':
      return page(CHECKOUT_PAGE, 20 + Math.random() * 40);
    case '/signup':
      return page(SIGNUP_PAGE, 10 + Math.random() * 20);
    case '/favicon.ico':
      return void res.writeHead(204).end();
    case '/healthy':
      return send(200, { status: 'ok' }, 5 + Math.random() * 30);
    case '/slow':
      return send(200, { status: 'ok' }, 650 + Math.random() * 150);
    case '/flaky':
      // Fails for half of every minute: statuses move between degraded and failing.
      return new Date().getSeconds() < 30
        ? send(503, { error: 'upstream timeout' }, 40)
        : send(200, { status: 'ok' }, 60);
    case '/orders':
      return send(200, { status: 'degraded', queue: 1289 }, 20);
    case '/regional':
      return req.headers['x-checkwall-location'] === OUTAGE_LOCATION
        ? send(502, { error: 'bad gateway in region' }, 10)
        : send(200, { status: 'ok' }, 25);
    default:
      return send(404, { error: 'not found' });
  }
}

const listen = (server: net.Server) =>
  new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
const shut = (server: net.Server) => new Promise<void>((resolve) => server.close(() => resolve()));

export async function startDemoTargets(): Promise<DemoTargets> {
  const http = createHttp(route);
  const https = createHttps({ key: DEMO_TLS_KEY, cert: DEMO_TLS_CERT }, route);
  const tcp = net.createServer((socket) =>
    socket.on('data', (d) => socket.write(d)).on('error', () => undefined),
  );
  const spare = net.createServer();
  const [httpPort, httpsPort, tcpPort, sparePort] = await Promise.all([
    listen(http),
    listen(https),
    listen(tcp),
    listen(spare),
  ]);
  await shut(spare); // a port we held and let go: connections are refused
  return {
    http: `http://127.0.0.1:${httpPort}`,
    https: `https://127.0.0.1:${httpsPort}`,
    tcp: `127.0.0.1:${tcpPort}`,
    refused: `http://127.0.0.1:${sparePort}`,
    async close() {
      http.closeAllConnections();
      https.closeAllConnections();
      await Promise.all([shut(http), shut(https), shut(tcp)]);
    },
  };
}
