// The HTTP and TCP runners against real loopback targets: phases are measured,
// failures are results.
import diagnostics from 'node:diagnostics_channel';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttps } from 'node:https';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckResultSchema } from '../../../src/api/schemas/index.js';
import { AccountConfigSchema, CheckConfigSchema } from '../../../src/server/config/schema.js';
import type { RunContext } from '../../../src/server/runners/types.js';
import { DEMO_TLS_CERT, DEMO_TLS_KEY } from '../../../src/server/demo/tls-cert.js';
import { runCheck } from '../../../src/server/runners/index.js';
import { closedPortUrl } from '../../helpers/fixture.js';
import { expectPhasesWithinTotal } from '../../helpers/timing.js';

const account = AccountConfigSchema.parse({
  id: '0b6f3c52-7c1e-4d8a-9f2b-3c4d5e6f7a8b',
  apiKeys: ['k'.repeat(16)],
});
const location = { id: 'eu-west', name: 'Frankfurt', region: 'eu-central-1' };
const ctx: RunContext = {
  maxStoredBodyBytes: 16,
  signal: new AbortController().signal,
  now: Date.now,
};

// How long /wait really held its headers: on a busy machine the timer fires
// late, and that lateness is the target's, not a measuring error of the runner.
let waited = 0;

function handler(req: IncomingMessage, res: ServerResponse) {
  if (req.url === '/wait') {
    const arrived = performance.now();
    return void setTimeout(() => {
      waited = performance.now() - arrived;
      res.writeHead(200).end('late');
    }, 200);
  }
  if (req.url === '/json')
    return void res
      .writeHead(200, { 'content-type': 'application/json', 'x-app': 'demo' })
      .end('{"status":"ok","items":[1,2],"name":"x"}');
  if (req.url === '/big') return void res.writeHead(200).end('x'.repeat(1000));
  if (req.url === '/hang') return; // never answers
  res.writeHead(500).end('boom');
}

let http = '';
let https = '';
let tcp = '';
let splitTcp = '';
const servers: net.Server[] = [];
beforeAll(async () => {
  const listen = async (server: net.Server) => {
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return (server.address() as AddressInfo).port;
  };
  http = `http://127.0.0.1:${await listen(createServer(handler))}`;
  https = `https://localhost:${await listen(createHttps({ key: DEMO_TLS_KEY, cert: DEMO_TLS_CERT }, handler))}`;
  tcp = `127.0.0.1:${await listen(net.createServer((s) => s.on('data', (d) => s.end(`echo ${String(d)}`))))}`;
  // A banner sent in two reads, the first ending in the first byte of "è".
  const banner = Buffer.from('220 crème ready');
  splitTcp = `127.0.0.1:${await listen(
    net.createServer((s) => {
      s.write(banner.subarray(0, 7));
      setTimeout(() => s.end(banner.subarray(7)), 20);
    }),
  )}`;
  // The first request of a process compiles undici's and node:http's paths
  // (about 15 ms once); timing assertions are about every run after that.
  await run({ target: `${http}/json` });
});
afterAll(() => {
  for (const s of servers) {
    if ('closeAllConnections' in s) (s as Server).closeAllConnections();
    s.close();
  }
});

const check = (over: Record<string, unknown>) =>
  CheckConfigSchema.parse({
    id: 'c',
    name: 'C',
    type: 'api',
    locations: ['eu-west'],
    timeoutMs: 2000,
    ...over,
  });
const run = async (over: Record<string, unknown>, context: RunContext = ctx) =>
  CheckResultSchema.parse(await runCheck(account, check(over), location, context, 'manual'));

// The resolver is the machine's, not ours: CI's once took over 20 s to say a
// .invalid name does not exist. These two answer as getaddrinfo does, at once or never.
const notFound: RunContext = {
  ...ctx,
  lookup: (host) =>
    Promise.reject(
      Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), {
        code: 'ENOTFOUND',
        syscall: 'getaddrinfo',
        hostname: host,
      }),
    ),
};
const silentResolver: RunContext = { ...ctx, lookup: () => new Promise(() => undefined) };

describe('http runner', () => {
  it('measures firstByte of a target that waits 200 ms before its headers', async () => {
    const r = await run({ target: `${http}/wait` });
    expect(r.status).toBe('success');
    expect(waited).toBeGreaterThanOrEqual(199);
    expect(r.timing.firstByte).toBeGreaterThanOrEqual(Math.floor(waited) - 1);
    // The wait, and at most the runner's event loop being late to read the headers (30 ms
    // once, with the full suite on 2 cores): not a second wait of 200 ms.
    expect(r.timing.firstByte).toBeLessThanOrEqual(waited + 100);
    expect(r.timing.tls).toBeUndefined();
    expectPhasesWithinTotal(r.timing, ['dns', 'tcp', 'firstByte', 'download']);
  });

  it('ends firstByte when the headers are parsed, not after what the same read does next', async () => {
    // Work done in the same turn after the headers (here 60 ms of it, as a scavenge or the
    // parse of a large body would take) must not count as the target's wait.
    const busy = () => {
      const until = performance.now() + 60;
      while (performance.now() < until);
    };
    diagnostics.subscribe('undici:request:headers', busy);
    try {
      const r = await run({ target: `${http}/wait` });
      expect(r.timing.firstByte).toBeLessThanOrEqual(waited + 15);
      expect(r.timing.download).toBeGreaterThanOrEqual(55);
    } finally {
      diagnostics.unsubscribe('undici:request:headers', busy);
    }
  });

  it('has a tls phase for HTTPS, and a TLS error without insecureTls', async () => {
    const ok = await run({ target: `${https}/json`, insecureTls: true });
    expect(ok.status).toBe('success');
    // A TLS handshake, even on loopback, takes some CPU for the key exchange: it is never 0 ms.
    expect(ok.timing.tls).toBeGreaterThan(0);
    expectPhasesWithinTotal(ok.timing, ['dns', 'tcp', 'tls', 'firstByte', 'download']);
    const bad = await run({ target: `${https}/json` });
    expect(bad).toMatchObject({ status: 'failed', response: null });
    expect(bad.error?.name).toBe('TLSError');
  });

  it.each([
    ['STATUS_CODE', '', 'EQUALS', '200', true, undefined],
    ['STATUS_CODE', '', 'NOT_EQUALS', '200', false, '200'],
    ['JSON_BODY', '$.status', 'EQUALS', 'ok', true, undefined],
    ['JSON_BODY', '$.items[1]', 'EQUALS', '2', true, undefined],
    ['JSON_BODY', '$.status', 'EQUALS', 'down', false, 'ok'],
    ['HEADERS', 'X-App', 'CONTAINS', 'dem', true, undefined],
    ['HEADERS', 'x-missing', 'NOT_EMPTY', '', false, '(absent)'],
    ['TEXT_BODY', '', 'NOT_CONTAINS', 'error', true, undefined],
    ['TEXT_BODY', '', 'IS_EMPTY', '', false, '{"status":"ok","items":[1,2],"name":"x"}'],
    ['RESPONSE_TIME', '', 'LESS_THAN', '5000', true, undefined],
    ['RESPONSE_TIME', '', 'GREATER_THAN', '5000', false, /^\d+$/],
  ])('%s %s %s %s passes: %s', async (source, property, comparison, target, passes, seen) => {
    const r = await run({ target: `${http}/json`, assertions: [{ source, property, comparison, target }] });
    expect(r.assertions[0]!.passed).toBe(passes);
    expect(r.status).toBe(passes ? 'success' : 'failed');
    // A failed assertion says what it saw; a passed one has nothing to explain.
    if (seen instanceof RegExp) expect(r.assertions[0]!.actual).toMatch(seen);
    else expect(r.assertions[0]!.actual).toBe(seen);
  });

  it('fails on an error status when the check has no assertions', async () => {
    const r = await run({ target: `${http}/other` });
    expect(r.status).toBe('failed');
    expect(r.response?.statusCode).toBe(500);
    expect(r.error?.name).toBe('HttpStatusError');
  });

  it('keeps bodies up to the cap with their real size', async () => {
    const r = await run({ target: `${http}/big` });
    expect(r.response?.body).toHaveLength(16);
    expect(r.response?.size).toBe(1000);
  });

  it('turns refused connections, timeouts and DNS failures into failed results', async () => {
    const refused = await run({ target: `${await closedPortUrl()}/` });
    expect(refused).toMatchObject({
      status: 'failed',
      response: null,
      error: { name: 'ConnectionRefusedError' },
    });
    // The message, not Node's frames (issue 13), and the timing ends where the run stopped.
    expect(refused.error?.stack).not.toMatch(/\bat\s/);
    expect(refused.error?.stack).toBe(`ConnectionRefusedError: ${refused.error?.message}`);
    expect(refused.timing.tcp).toBeUndefined();
    const slow = await run({ target: `${http}/hang`, timeoutMs: 300 });
    expect(slow).toMatchObject({ status: 'failed', error: { name: 'TimeoutError' } });
    const dns = await run({ target: 'http://nonexistent.invalid/' }, notFound);
    expect(dns).toMatchObject({ status: 'failed', error: { name: 'DNSError' } });
    expect(dns.error?.message).toContain('nonexistent.invalid');
  });

  it('stops waiting for a resolver that never answers at the timeout, and says so', async () => {
    const r = await run({ target: 'http://quiet.example/', timeoutMs: 300 }, silentResolver);
    expect(r).toMatchObject({ status: 'failed', error: { name: 'TimeoutError' } });
    expect(r.error?.message).toBe('no DNS answer for quiet.example within 300 ms');
    expect(r.timing.dns).toBeUndefined();
  });
});

describe('tcp runner', () => {
  it('connects, sends and finds the expected reply', async () => {
    const r = await run({ type: 'tcp', target: tcp, send: 'PING', expect: 'echo PING' });
    expect(r.status).toBe('success');
    expect(r.timing.tls).toBeUndefined();
    expectPhasesWithinTotal(r.timing, ['dns', 'tcp']);
    expect(r.request).toMatchObject({ method: 'TCP', body: 'PING' });
  });

  it('reads a reply whose UTF-8 character is split between two reads', async () => {
    const r = await run({ type: 'tcp', target: splitTcp, expect: 'crème ready', timeoutMs: 1000 });
    expect(r.error).toBeUndefined();
  });

  it('fails on an unexpected reply and on a refused port', async () => {
    expect((await run({ type: 'tcp', target: tcp, send: 'PING', expect: 'PONG' })).error?.name).toBe(
      'UnexpectedReply',
    );
    const port = new URL(await closedPortUrl()).port;
    expect((await run({ type: 'tcp', target: `127.0.0.1:${port}` })).status).toBe('failed');
  });

  it('fails with a timeout when the expected reply never comes, and on a name that does not resolve', async () => {
    // The echo target says nothing until it is sent something.
    const silent = await run({ type: 'tcp', target: tcp, expect: 'HELLO', timeoutMs: 300 });
    expect(silent).toMatchObject({ status: 'failed', error: { name: 'TimeoutError' } });
    expect(silent.error?.message).toBe('no expected reply within 300 ms');
    const dns = await run({ type: 'tcp', target: 'nonexistent.invalid:5432' }, notFound);
    expect(dns).toMatchObject({ status: 'failed', error: { name: 'DNSError' } });
    expect(dns.error?.message).toContain('nonexistent.invalid');
    // A resolver that never answers held a TCP run past its timeout (the DNS phase was not raced).
    const quiet = await run({ type: 'tcp', target: 'quiet.example:5432', timeoutMs: 300 }, silentResolver);
    expect(quiet).toMatchObject({ status: 'failed', error: { name: 'TimeoutError' } });
    expect(quiet.error?.message).toBe('no DNS answer for quiet.example within 300 ms');
    const port = new URL(await closedPortUrl()).port;
    const refused = await run({ type: 'tcp', target: `127.0.0.1:${port}` });
    expect(refused.error?.name).toBe('ConnectionRefusedError');
  });
});

describe('a heartbeat check given to the runner', () => {
  it('is a failed result saying it is judged by its pings, never run', async () => {
    const hb = check({ type: 'heartbeat', token: 'token-123456', frequency: '30s', grace: '10s' });
    const result = await runCheck(account, hb, location, ctx, 'schedule');
    expect(result.status).toBe('failed');
    expect(result.error?.name).toBe('HeartbeatError');
  });
});
