// Checkwall's HTTP probe and Prometheus' blackbox_exporter, run on the same
// loopback targets, say the same thing: success or failure, the status code, the
// number of redirects, the earliest certificate expiry, and each delayed phase
// within its delay. Where Checkwall says something else on purpose, the row names
// the decision in docs/service.md ("The probe's rules") that says why.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckResultSchema, type CheckResult } from '../../../src/api/schemas/index.js';
import { probeHttp, type HttpProbe } from '../../../src/server/runners/http.js';
import { finishResult, startFrame } from '../../../src/server/runners/result.js';
import type { RunContext } from '../../../src/server/runners/types.js';
import { apiCheck } from '../../helpers/configs.js';
import { startBlackbox, type Blackbox, type BlackboxProbe } from '../../helpers/blackbox.js';
import { makeChain, serveChain, type HttpsTarget } from '../../helpers/certificates.js';
import { closedPortUrl, startFixture, type Fixture } from '../../helpers/fixture.js';

const location = { id: 'here', name: 'Here', region: 'local' };
const HELLO = 'hello from the target';

/**
 * Waits until at least `ms` have passed on this process's clock (a timer may fire a
 * little early), and tells `then` how long it really waited: on a busy machine the
 * timer fires late, and that lateness is the target's delay, not the probe's error.
 */
function after(ms: number, then: (waited: number) => void): void {
  const start = performance.now();
  const tick = () => {
    const waited = performance.now() - start;
    if (waited >= ms) then(waited);
    else setTimeout(tick, 5);
  };
  setTimeout(tick, ms);
}

/** How long the target really held its headers, and its body's end, on the last request. */
const held = { headers: 0, body: 0 };

let plain: Fixture;
let other: Fixture;
let raw: net.Server;
let rawUrl = '';
let closed = '';
const tlsTargets: Record<string, HttpsTarget> = {};
let blackbox: Blackbox;
let dir = '';
let ca = '';

function answer(req: { url: string; headers: Record<string, unknown> }, res: ServerResponse) {
  const path = req.url;
  const redirect = (to: string, status = 302) => void res.writeHead(status, { location: to }).end();
  if (path === '/plain') return void res.writeHead(200, { 'content-type': 'text/plain' }).end(HELLO);
  if (path === '/5xx') return void res.writeHead(503).end('down');
  if (path === '/basic') {
    const sent = req.headers.authorization === `Basic ${Buffer.from('ann:pa ss').toString('base64')}`;
    return void res.writeHead(sent ? 200 : 401).end();
  }
  if (path === '/204') return void res.writeHead(204).end();
  const hops = /^\/r\/(\d)$/.exec(path);
  if (hops) return redirect(hops[1] === '1' ? '/plain' : `/r/${Number(hops[1]) - 1}`, 301);
  if (path === '/loop/a') return redirect('/loop/b');
  if (path === '/loop/b') return redirect('/loop/a');
  if (path === '/cross') return redirect(`${other.url.replace('127.0.0.1', 'localhost')}/who`);
  if (path === '/gzip-always')
    return void res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync(HELLO));
  if (path === '/gzip-asked') {
    const asked = String(req.headers['accept-encoding'] ?? '').includes('gzip');
    return void res
      .writeHead(200, asked ? { 'content-encoding': 'gzip' } : {})
      .end(asked ? gzipSync(HELLO) : HELLO);
  }
  // As a CDN answers HEAD: the GET's headers, encoding included, and no body.
  if (path === '/gzip-head')
    return void res
      .writeHead(200, { 'content-encoding': 'gzip', 'content-length': gzipSync(HELLO).length })
      .end(gzipSync(HELLO));
  if (path === '/gzip-then-br')
    return void res
      .writeHead(200, { 'content-encoding': 'gzip, br' })
      .end(brotliCompressSync(gzipSync(HELLO)));
  // Bytes in an encoding the probe never asked for (zstd's frame magic, then noise).
  if (path === '/zstd')
    return void res
      .writeHead(200, { 'content-encoding': 'zstd' })
      .end(Buffer.from('28b52ffd0458290000', 'hex'));
  if (path === '/mib') return void res.writeHead(200).end('x'.repeat(1024 * 1024));
  if (path === '/slow-headers')
    return after(300, (waited) => {
      held.headers = waited;
      res.writeHead(200).end(HELLO);
    });
  if (path === '/dribble') {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.write('.');
    for (let i = 1; i < 8; i++) after(i * 100, () => res.write('.'));
    return after(800, (waited) => {
      held.body = waited;
      res.end(HELLO);
    });
  }
  res.writeHead(404).end();
}

/** Answers no HTTP library would write: by the request line's path. */
function rawAnswer(socket: net.Socket): void {
  socket.on('error', () => undefined);
  socket.once('data', (data: Buffer) => {
    const path = data.toString('latin1').split(' ')[1];
    if (path === '/http10') return void socket.end(`HTTP/1.0 200 OK\r\n\r\n${HELLO}`);
    if (path === '/malformed')
      return void socket.end(`HTTP/1.1 200 OK\r\nContent-Length: 2\r\nX-Trace: a\x01b\r\n\r\nok`);
    // A Location's bytes as sites send them: UTF-8, not percent-encoded.
    if (path === '/utf8-location')
      return void socket.end(
        Buffer.from(`HTTP/1.1 302 Found\r\nLocation: /café\r\nContent-Length: 0\r\n\r\n`),
      );
    if (path === '/caf%C3%A9')
      return void socket.end(`HTTP/1.1 200 OK\r\nContent-Length: ${HELLO.length}\r\n\r\n${HELLO}`);
    const kib = /^\/headers-(\d+)k$/.exec(path ?? '');
    if (kib) {
      const cookies = Array.from(
        { length: Number(kib[1]) },
        (_, i) => `Set-Cookie: c${i}=${'v'.repeat(1000)}\r\n`,
      );
      return void socket.end(`HTTP/1.1 200 OK\r\n${cookies.join('')}Content-Length: 2\r\n\r\nok`);
    }
    // A 100 nobody asked for (cut mid-line), then Early Hints, then the answer.
    if (path === '/interim') {
      socket.write('HTTP/1.1 100 Con');
      return void after(20, () =>
        socket.end(
          `tinue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </s.css>; rel=preload\r\n\r\n` +
            `HTTP/1.1 200 OK\r\nContent-Length: ${HELLO.length}\r\n\r\n${HELLO}`,
        ),
      );
    }
    if (path === '/te-and-length')
      return void socket.end(
        `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n2\r\nok\r\n0\r\n\r\n`,
      );
    if (path === '/reset') {
      socket.write(`HTTP/1.1 200 OK\r\nContent-Length: 200000\r\n\r\n${'x'.repeat(50_000)}`);
      return void after(100, () => socket.resetAndDestroy());
    }
    // /silent: the connection is accepted and never answered.
  });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'checkwall-agreement-'));
  plain = await startFixture(answer);
  other = await startFixture((req, res) =>
    res.writeHead(200).end(req.headers.authorization ? 'auth:present' : 'auth:none'),
  );
  raw = net.createServer(rawAnswer);
  await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
  rawUrl = `http://127.0.0.1:${(raw.address() as AddressInfo).port}`;
  closed = await closedPortUrl();
  const chains = {
    trusted: await makeChain({ leafDays: 200, intermediateDays: 300, name: 'Trusted' }),
    dnsOnly: await makeChain({
      leafDays: 200,
      intermediateDays: 300,
      name: 'DNS',
      names: { dns: ['localhost'], ip: [] },
    }),
    cnOnly: await makeChain({
      leafDays: 200,
      intermediateDays: 300,
      name: 'CN only',
      names: { dns: [], ip: [] },
    }),
    untrusted: await makeChain({ leafDays: 200, intermediateDays: 300, name: 'Stranger' }),
    expired: await makeChain({ leafDays: -2, intermediateDays: 300, name: 'Expired' }),
    expiring: await makeChain({ leafDays: 5, intermediateDays: 300, name: 'Expiring' }),
  };
  for (const [name, chain] of Object.entries(chains)) tlsTargets[name] = await serveChain(chain);
  ca = [chains.trusted, chains.dnsOnly, chains.cnOnly, chains.expired, chains.expiring]
    .map((c) => c.root.pem)
    .join('\n');
  writeFileSync(join(dir, 'ca.pem'), ca);
  const http = (extra = '') => `prober: http\ntimeout: 5s\nhttp:\n  preferred_ip_protocol: ip4\n${extra}`;
  blackbox = await startBlackbox({
    plain: http(),
    hello: http(`  fail_if_body_not_matches_regexp: ['${HELLO}']\n`),
    noauth: http(
      `  headers:\n    Authorization: Bearer secret\n  fail_if_body_not_matches_regexp: ['auth:none']\n`,
    ),
    short: http().replace('timeout: 5s', 'timeout: 1s'),
    head: http('  method: HEAD\n'),
    brief: http(`  tls_config:\n    ca_file: ${join(dir, 'ca.pem')}\n`).replace(
      'timeout: 5s',
      'timeout: 300ms',
    ),
    tls: http(`  tls_config:\n    ca_file: ${join(dir, 'ca.pem')}\n`),
  });
  // The first request of a process compiles undici's and node:http's paths: timing
  // rows are about every run after that.
  await runCheckwall({ target: `${plain.url}/plain` });
}, 30_000);

afterAll(async () => {
  await blackbox?.stop();
  await Promise.all([plain?.close(), other?.close(), ...Object.values(tlsTargets).map((t) => t.close())]);
  raw?.close();
  rmSync(dir, { recursive: true, force: true });
});

// getaddrinfo may answer ::1 first for localhost; the exporter is told ip4 too.
const lookup: RunContext['lookup'] = (host) =>
  Promise.resolve({ address: net.isIP(host) ? host : '127.0.0.1' });

async function runCheckwall(
  over: Record<string, unknown>,
): Promise<{ result: CheckResult; probe: HttpProbe }> {
  const check = apiCheck(over);
  const ctx: RunContext = {
    maxStoredBodyBytes: 64 * 1024,
    signal: new AbortController().signal,
    now: Date.now,
    lookup,
    ca,
  };
  const frame = startFrame(check, location, 'manual');
  const probe = await probeHttp(check, location, ctx);
  return { result: CheckResultSchema.parse(finishResult(frame, probe.outcome)), probe };
}

interface Row {
  name: string;
  target: () => string;
  module: string;
  check?: Record<string, unknown>;
  passes: boolean;
  /** Checkwall's outcome differs from the exporter's by this decision of docs/service.md. */
  differs?: string;
  also?: (cw: { result: CheckResult; probe: HttpProbe }, bb: BlackboxProbe) => void;
  /** Checked on Checkwall's run before the exporter's (which moves what the target measured). */
  first?: (cw: { result: CheckResult; probe: HttpProbe }) => void;
}

const hello = [{ source: 'TEXT_BODY', property: '', comparison: 'CONTAINS', target: HELLO }];
const https = (name: string) => () => tlsTargets[name]!.url.replace('localhost', '127.0.0.1') + '/';

const ROWS: Row[] = [
  {
    name: 'plain',
    target: () => `${plain.url}/plain`,
    module: 'hello',
    check: { assertions: hello },
    passes: true,
  },
  { name: '5xx', target: () => `${plain.url}/5xx`, module: 'plain', passes: false },
  {
    name: '3 redirects',
    target: () => `${plain.url}/r/3`,
    module: 'hello',
    check: { assertions: hello },
    passes: true,
    also: (cw, bb) => {
      expect(cw.probe.hops.map((h) => h.statusCode)).toEqual([301, 301, 301, 200]);
      expect(cw.probe.hops.length - 1).toBe(bb.redirects);
      expect(cw.result.request.url).toBe(`${plain.url}/r/3`);
    },
  },
  {
    name: 'a redirect loop',
    target: () => `${plain.url}/loop/a`,
    module: 'plain',
    passes: false,
    also: (cw) =>
      expect(cw.result.error?.message).toBe(
        `redirect loop: ${plain.url}/loop/a → ${plain.url}/loop/b → ${plain.url}/loop/a`,
      ),
  },
  {
    name: 'a cross-host redirect (credentials stay behind)',
    target: () => `${plain.url}/cross`,
    module: 'noauth',
    check: {
      headers: { Authorization: 'Bearer secret' },
      assertions: [{ source: 'TEXT_BODY', property: '', comparison: 'CONTAINS', target: 'auth:none' }],
    },
    passes: true,
    also: (cw, bb) => expect([cw.probe.hops.length - 1, bb.redirects]).toEqual([1, 1]),
  },
  {
    name: 'a Location in UTF-8 (/café)',
    target: () => `${rawUrl}/utf8-location`,
    module: 'hello',
    check: { assertions: hello },
    passes: true,
    also: (cw) =>
      expect(cw.probe.hops.map((h) => h.url)).toEqual([`${rawUrl}/utf8-location`, `${rawUrl}/caf%C3%A9`]),
  },
  {
    name: "credentials in the target's URL, sent as Basic",
    target: () => `${plain.url.replace('//', '//ann:pa%20ss@')}/basic`,
    module: 'plain',
    passes: true,
    // Every read key reads results: the password is in none of them (docs/security.md).
    also: (cw) => expect(JSON.stringify(cw.result)).not.toMatch(/pa%20ss|ann:/),
  },
  {
    name: 'gzip always',
    target: () => `${plain.url}/gzip-always`,
    module: 'hello',
    check: { assertions: hello },
    passes: true,
    // The exporter asks for no encoding and matches its regexp against the gzip bytes.
    differs: 'compressed bodies',
  },
  {
    name: 'gzip when asked',
    target: () => `${plain.url}/gzip-asked`,
    module: 'hello',
    check: { assertions: hello },
    passes: true,
    also: (cw) => {
      expect(cw.result.response?.headers['content-encoding']).toBe('gzip');
      expect(cw.result.response?.body).toBe(HELLO);
      expect(cw.result.response?.size).toBe(gzipSync(HELLO).length);
    },
  },
  {
    name: 'HEAD of a gzipped page',
    target: () => `${plain.url}/gzip-head`,
    module: 'head',
    check: { method: 'HEAD' },
    passes: true,
    also: (cw) => expect(cw.result.response).toMatchObject({ statusCode: 200, size: 0, body: '' }),
  },
  {
    name: 'gzip, then br (two encodings)',
    target: () => `${plain.url}/gzip-then-br`,
    module: 'plain',
    check: { assertions: hello },
    passes: true,
    also: (cw) => expect(cw.result.response?.body).toBe(HELLO),
  },
  {
    name: 'zstd, unasked',
    target: () => `${plain.url}/zstd`,
    module: 'plain',
    check: {
      assertions: [{ source: 'TEXT_BODY', property: '', comparison: 'NOT_CONTAINS', target: 'error' }],
    },
    passes: false,
    differs: 'an encoding it does not decode',
    also: (cw) => {
      expect(cw.result.error).toMatchObject({
        name: 'DecodeError',
        message: 'the body is in zstd, which the probe does not decode (it decodes gzip, deflate and br)',
      });
      expect(cw.result.assertions[0]).toMatchObject({
        passed: false,
        actual: 'not evaluated: the body could not be decoded',
      });
    },
  },
  {
    name: '1 MiB',
    target: () => `${plain.url}/mib`,
    module: 'plain',
    passes: true,
    also: (cw) => expect(cw.result.response?.size).toBe(1024 * 1024),
  },
  { name: '204', target: () => `${plain.url}/204`, module: 'plain', passes: true },
  {
    name: 'HTTP/1.0 close-delimited',
    target: () => `${rawUrl}/http10`,
    module: 'hello',
    check: { assertions: hello },
    passes: true,
  },
  {
    name: 'a malformed header',
    target: () => `${rawUrl}/malformed`,
    module: 'plain',
    passes: false,
    differs: 'an answer that is not HTTP',
    also: (cw) => {
      expect(cw.result.error?.name).toBe('ProtocolError');
      expect(cw.result.error?.message).toBe('the answer is not valid HTTP: invalid header value in X-Trace');
    },
  },
  { name: '20 KiB of headers', target: () => `${rawUrl}/headers-20k`, module: 'plain', passes: true },
  {
    name: '300 KiB of headers',
    target: () => `${rawUrl}/headers-300k`,
    module: 'plain',
    passes: false,
    differs: 'headers past a browser',
    also: (cw) =>
      expect(cw.result.error).toMatchObject({
        name: 'ProtocolError',
        message: "the answer's headers are larger than 256 KiB, which Chrome refuses",
      }),
  },
  {
    name: '100 Continue unasked, 103 Early Hints, then 200',
    target: () => `${rawUrl}/interim`,
    module: 'hello',
    check: { assertions: hello },
    passes: true,
  },
  {
    name: 'Transfer-Encoding and Content-Length together',
    target: () => `${rawUrl}/te-and-length`,
    module: 'plain',
    passes: false,
    differs: 'an answer that is not HTTP',
    also: (cw) =>
      expect(cw.result.error).toMatchObject({
        name: 'ProtocolError',
        message: "the answer is not valid HTTP: Content-Length can't be present with Transfer-Encoding",
      }),
  },
  {
    name: 'accepted, never answered',
    target: () => `${rawUrl}/silent`,
    module: 'short',
    check: { timeoutMs: 1000 },
    passes: false,
    also: (cw) => expect(cw.result.error?.name).toBe('TimeoutError'),
  },
  {
    name: 'TLS: accepted, never a handshake',
    target: () => `${rawUrl.replace('http:', 'https:')}/`,
    module: 'brief',
    check: { timeoutMs: 300 },
    passes: false,
    also: (cw) => {
      expect(cw.result.error).toMatchObject({
        name: 'TimeoutError',
        message: 'no TLS handshake within 300 ms',
      });
      expect(cw.result.timing.total).toBeLessThan(300 + 250);
    },
  },
  {
    name: 'a reset mid-body',
    target: () => `${rawUrl}/reset`,
    module: 'plain',
    check: {
      assertions: [
        { source: 'STATUS_CODE', property: '', comparison: 'EQUALS', target: '200' },
        { source: 'TEXT_BODY', property: '', comparison: 'CONTAINS', target: 'x' },
      ],
    },
    passes: false,
    also: (cw) => {
      expect(cw.result.error).toMatchObject({
        name: 'BodyCutError',
        message: 'the body was cut after 50,000 of 200,000 bytes (connection reset)',
      });
      expect(cw.result.response).toMatchObject({ statusCode: 200, size: 50_000 });
      expect(cw.result.response?.headers['content-length']).toBe('200000');
      expect(cw.result.assertions.map((a) => [a.passed, a.actual])).toEqual([
        [true, undefined],
        [false, 'not evaluated: the body was cut'],
      ]);
    },
  },
  {
    name: 'headers after 300 ms',
    target: () => `${plain.url}/slow-headers`,
    module: 'plain',
    passes: true,
    also: (cw, bb) => {
      // Each probe is held its own time; the exporter's ran last.
      expect(cw.result.timing.firstByte).toBeGreaterThanOrEqual(300);
      expect(bb.phases.processing).toBeGreaterThanOrEqual(0.3);
      expect(bb.phases.processing).toBeLessThan((held.headers + 250) / 1000);
    },
    first: (cw) => expect(cw.result.timing.firstByte).toBeLessThan(held.headers + 250),
  },
  {
    name: 'a body dribbled over 800 ms',
    target: () => `${plain.url}/dribble`,
    module: 'hello',
    check: { assertions: hello },
    passes: true,
    also: (cw, bb) => {
      expect(cw.result.timing.download).toBeGreaterThanOrEqual(800);
      expect(cw.result.timing.firstByte).toBeLessThan(250);
      expect(bb.phases.transfer).toBeGreaterThanOrEqual(0.8);
      expect(bb.phases.transfer).toBeLessThan((held.body + 250) / 1000);
    },
    first: (cw) => expect(cw.result.timing.download).toBeLessThan(held.body + 250),
  },
  {
    name: 'a closed port',
    target: () => `${closed}/`,
    module: 'plain',
    passes: false,
    also: (cw) => expect(cw.result.error?.name).toBe('ConnectionRefusedError'),
  },
  {
    name: 'TLS: a trusted certificate with the IP in its SANs',
    target: https('trusted'),
    module: 'tls',
    passes: true,
    also: (cw, bb) =>
      expect(Date.parse(cw.result.certificate!.chainValidTo!) / 1000).toBe(bb.earliestCertExpiry),
  },
  {
    name: 'TLS: a trusted certificate naming only localhost, on an IP target',
    target: https('dnsOnly'),
    module: 'tls',
    passes: false,
    also: (cw) => {
      expect(cw.result.error?.name).toBe('TLSError');
      expect(cw.result.error?.message).toBe(
        "the certificate's names (DNS:localhost) do not include 127.0.0.1",
      );
    },
  },
  {
    name: 'TLS: a certificate named by its CN alone',
    target: () => `${tlsTargets.cnOnly!.url}/`,
    module: 'tls',
    passes: false,
    also: (cw) =>
      expect(cw.result.error).toMatchObject({
        name: 'TLSError',
        message:
          "the certificate's names (it has no alternative names) do not include localhost: its subject's CN is not read, as browsers do not read it",
      }),
  },
  {
    name: 'TLS: https to a port that speaks HTTP',
    target: () => `${plain.url.replace('http:', 'https:')}/plain`,
    module: 'tls',
    passes: false,
    also: (cw) =>
      expect(cw.result.error).toMatchObject({
        name: 'TLSError',
        message: 'the TLS handshake failed: wrong version number (does the port speak plain HTTP?)',
      }),
  },
  { name: 'TLS: an untrusted certificate', target: https('untrusted'), module: 'tls', passes: false },
  {
    name: 'TLS: an expired certificate',
    target: https('expired'),
    module: 'tls',
    passes: false,
    also: (cw) => expect(cw.result.error?.message).toMatch(/^certificate expired on /),
  },
  {
    name: 'TLS: a certificate expiring in 5 days',
    target: https('expiring'),
    module: 'tls',
    passes: true,
    also: (cw, bb) => {
      expect(cw.result.certificate?.daysRemaining).toBe(4);
      expect(Date.parse(cw.result.certificate!.chainValidTo!) / 1000).toBe(bb.earliestCertExpiry);
    },
  },
];

const rules = readFileSync(new URL('../../../docs/service.md', import.meta.url), 'utf8').toLowerCase();

describe('the HTTP probe agrees with blackbox_exporter', () => {
  it('names, for each row where it differs, a decision docs/service.md explains', () => {
    for (const row of ROWS) if (row.differs) expect(rules, row.name).toContain(row.differs.toLowerCase());
  });

  it.each(ROWS)('$name', async (row) => {
    const cw = await runCheckwall({ target: row.target(), ...row.check });
    row.first?.(cw);
    const bb = await blackbox.probe(row.target(), row.module);
    const said = `checkwall: ${JSON.stringify(cw.result.error ?? cw.result.assertions)}\nblackbox_exporter:\n${bb.log}`;
    expect(cw.result.status === 'success', said).toBe(row.passes);
    expect(bb.success, said).toBe(row.differs === undefined ? row.passes : !row.passes);
    if (cw.result.response && bb.statusCode > 0) expect(cw.result.response.statusCode).toBe(bb.statusCode);
    if (row.passes) expect(cw.probe.hops.length - 1).toBe(bb.redirects);
    row.also?.(cw, bb);
  });
});
