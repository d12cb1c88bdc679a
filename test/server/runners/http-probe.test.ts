// The probe's rules (docs/service.md, "The probe's rules") one by one, on real
// loopback targets: redirects, what a redirect carries, encodings, TLS on every hop.
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nonPublicRange } from '../../../src/server/runners/address-range.js';
import { invalidHead } from '../../../src/server/runners/http-errors.js';
import { probeHttp, runHttpCheck } from '../../../src/server/runners/http.js';
import { PROBE_DEFAULTS, type ProbeOptions } from '../../../src/server/runners/http-options.js';
import type { RunContext } from '../../../src/server/runners/types.js';
import type { AccountConfig } from '../../../src/server/config/schema.js';
import { apiCheck } from '../../helpers/configs.js';
import { makeChain, serveChain, type HttpsTarget } from '../../helpers/certificates.js';
import { startFixture, type Fixture } from '../../helpers/fixture.js';

const location = { id: 'here' };
let ca = '';
const ctx = (): RunContext => ({
  maxStoredBodyBytes: 1024,
  signal: new AbortController().signal,
  now: Date.now,
  ca,
});
const probe = (over: Record<string, unknown>, options: Partial<ProbeOptions> = {}) => {
  const check = apiCheck(over);
  return probeHttp(check, location, ctx(), { ...PROBE_DEFAULTS, ca, ...options });
};

let site: Fixture;
let elsewhere: Fixture;
let longLived: HttpsTarget;
let shortLived: HttpsTarget;
let namedOnly: HttpsTarget;
const encoded: Record<string, Buffer> = {
  gzip: gzipSync('packed'),
  deflate: deflateSync('packed'),
  br: brotliCompressSync('packed'),
};
const bomb = gzipSync(Buffer.alloc(80 * 1024 * 1024));

beforeAll(async () => {
  elsewhere = await startFixture((req, res) => res.writeHead(200).end(JSON.stringify(req.headers)));
  site = await startFixture((req, res) => {
    const [path, query] = req.url.split('?');
    const status = Number(query ?? 302);
    if (path === '/to') return void res.writeHead(status, { location: '/echo' }).end();
    if (path === '/echo')
      return void res.writeHead(200).end(JSON.stringify({ method: req.method, body: req.body }));
    if (path === '/away') return void res.writeHead(302, { location: `${elsewhere.url}/` }).end();
    if (path === '/home') return void res.writeHead(302, { location: '/headers' }).end();
    if (path === '/headers') return void res.writeHead(200).end(JSON.stringify(req.headers));
    if (path === '/metadata')
      return void res.writeHead(302, { location: 'http://169.254.169.254/latest/' }).end();
    if (path === '/ftp') return void res.writeHead(302, { location: 'ftp://files.example/' }).end();
    const hops = /^\/r\/(\d)$/.exec(path!);
    if (hops)
      return void res
        .writeHead(301, { location: hops[1] === '1' ? '/echo' : `/r/${Number(hops[1]) - 1}` })
        .end();
    if (path === '/to-short')
      return void res
        .writeHead(302, { location: `${shortLived.url.replace('localhost', '127.0.0.1')}/` })
        .end();
    if (path === '/to-named-only')
      return void res
        .writeHead(302, { location: `${namedOnly.url.replace('localhost', '127.0.0.1')}/` })
        .end();
    if (path === '/encoded')
      return void res.writeHead(200, { 'content-encoding': query! }).end(encoded[query!]);
    if (path === '/bomb') return void res.writeHead(200, { 'content-encoding': 'gzip' }).end(bomb);
    res.writeHead(404).end();
  });
  const long = await makeChain({ leafDays: 200, intermediateDays: 300, name: 'Long' });
  const short = await makeChain({ leafDays: 5, intermediateDays: 300, name: 'Short' });
  const named = await makeChain({
    leafDays: 200,
    intermediateDays: 300,
    name: 'Named',
    names: { dns: ['localhost'], ip: [] },
  });
  ca = [long, short, named].map((c) => c.root.pem).join('\n');
  shortLived = await serveChain(short);
  namedOnly = await serveChain(named);
  longLived = await serveChain(
    long,
    (_req, res) => void res.writeHead(302, { location: `${site.url}/to-short` }).end(),
  );
}, 30_000);

afterAll(async () => {
  await Promise.all([site, elsewhere, longLived, shortLived, namedOnly].map((s) => s?.close()));
});

/** A run as the service makes it: the check's own keys read (probeOptions), a whole result. */
const run = (over: Record<string, unknown>, context: Partial<RunContext> = {}) => {
  const check = apiCheck(over);
  const at = { id: 'here', name: 'Here', region: 'r1' };
  return runHttpCheck({ id: 'a' } as AccountConfig, check, at, { ...ctx(), ...context }, 'api');
};

describe("the check's keys, and what the result says of them", () => {
  it('follows redirects and lists each before the final answer, or follows none when told', async () => {
    const followed = await run({ target: `${site.url}/r/3` });
    expect(followed.status).toBe('success');
    expect(followed.request.url).toBe(`${site.url}/r/3`);
    expect(followed.response?.statusCode).toBe(200);
    expect(followed.redirects?.map((r) => [r.url, r.statusCode])).toEqual([
      [`${site.url}/r/3`, 301],
      [`${site.url}/r/2`, 301],
      [`${site.url}/r/1`, 301],
    ]);
    for (const r of followed.redirects!) expect(r.timing.download).toBeUndefined();
    const first = await run({ target: `${site.url}/r/3`, followRedirects: false });
    expect(first.response?.statusCode).toBe(301);
    expect(first.redirects).toBeUndefined();
    const many = await run({ target: `${site.url}/r/3`, maxRedirects: 2 });
    expect(many.error?.message).toBe(`more than 2 redirects: stopped before ${site.url}/echo`);
    const inside = await run({ target: `${site.url}/metadata` });
    expect(inside.status).toBe('failed');
    const allowed = await run({
      target: `${site.url}/metadata`,
      allowPrivateRedirects: true,
      timeoutMs: 300,
    });
    // Let through to 169.254.169.254, which nothing here answers: no longer refused for its range.
    expect(allowed.error?.message).not.toMatch(/link-local/);
  });

  it('asks for encodings unless told not to, and gives the decoded size beside the size on the wire', async () => {
    const asked = await run({ target: `${site.url}/encoded?gzip` });
    expect(asked.response?.body).toBe('packed');
    expect(asked.response?.size).toBe(encoded['gzip']!.length);
    expect(asked.decodedSize).toBe('packed'.length);
    expect(asked.decodedSizeCapped).toBeUndefined();
    const plain = await run({ target: `${site.url}/headers`, acceptEncoding: false });
    expect(JSON.parse(plain.response!.body)).not.toHaveProperty('accept-encoding');
    const bomb = await run({ target: `${site.url}/bomb` });
    expect(bomb.decodedSize).toBe(64 * 1024 * 1024);
    expect(bomb.decodedSizeCapped).toBe(true);
  });

  it("trusts the check's own CA (tls.ca), and without it the system's roots alone", async () => {
    const target = `${namedOnly.url}/`;
    const trusted = await run({ target, tls: { ca } }, { ca: undefined });
    expect(trusted.certificate?.subject).toBeTruthy();
    expect(trusted.error?.message ?? '').not.toMatch(/self-signed|unable to get|untrusted/i);
    const untrusted = await run({ target }, { ca: undefined });
    expect(untrusted.status).toBe('failed');
    expect(untrusted.error?.message).toMatch(/trust|issuer|self-signed|unable/i);
  });
});

describe('redirects', () => {
  it.each([
    [303, 'POST', 'GET', ''],
    [301, 'POST', 'GET', ''],
    [302, 'POST', 'GET', ''],
    [307, 'POST', 'POST', 'payload'],
    [308, 'PUT', 'PUT', 'payload'],
    [303, 'PUT', 'GET', ''],
    [301, 'PUT', 'PUT', 'payload'],
  ])('after a %i, a %s continues as %s', async (status, method, then, body) => {
    const { outcome, hops } = await probe({ target: `${site.url}/to?${status}`, method, body: 'payload' });
    expect(JSON.parse(outcome.response!.body)).toEqual({ method: then, body });
    expect(hops.map((h) => h.statusCode)).toEqual([status, 200]);
    // The request is the check's: its URL and method, whatever the redirects made of them.
    expect(outcome.request).toMatchObject({ url: `${site.url}/to?${status}`, method });
  });

  it("keeps the check's own headers on its origin and drops them, and credentials, on another", async () => {
    const headers = {
      Authorization: 'Bearer secret',
      Cookie: 'id=1',
      'Proxy-Authorization': 'Basic x',
      'X-Team': 'ops',
    };
    const home = await probe({ target: `${site.url}/home`, headers });
    expect(JSON.parse(home.outcome.response!.body)).toMatchObject({
      authorization: 'Bearer secret',
      cookie: 'id=1',
      'x-team': 'ops',
    });
    const away = await probe({ target: `${site.url}/away`, headers });
    const seen = JSON.parse(away.outcome.response!.body) as Record<string, string>;
    for (const name of ['authorization', 'cookie', 'proxy-authorization', 'x-team'])
      expect(seen[name]).toBeUndefined();
    expect(seen['accept-encoding']).toBe('gzip, deflate, br');
  });

  it('sums the phases over the hops and keeps each hop', async () => {
    const { outcome, hops } = await probe({ target: `${site.url}/r/3` });
    expect(hops.map((h) => h.url)).toEqual([
      `${site.url}/r/3`,
      `${site.url}/r/2`,
      `${site.url}/r/1`,
      `${site.url}/echo`,
    ]);
    for (const phase of ['dns', 'tcp', 'firstByte'] as const)
      expect(outcome.timing[phase]).toBe(hops.reduce((sum, h) => sum + (h.timing[phase] ?? 0), 0));
    // A redirect's body is not read: only the final answer has a download.
    expect(hops.map((h) => h.timing.download !== undefined)).toEqual([false, false, false, true]);
  });

  it('fails past the limit naming it, and follows none when told not to', async () => {
    const many = await probe({ target: `${site.url}/r/3` }, { maxRedirects: 2 });
    expect(many.outcome.error?.message).toBe(`more than 2 redirects: stopped before ${site.url}/echo`);
    expect(many.outcome.response?.statusCode).toBe(301);
    const none = await probe({ target: `${site.url}/r/3` }, { followRedirects: false });
    expect(none.outcome.error).toBeUndefined();
    expect(none.hops).toHaveLength(1);
  });

  it('follows only http and https', async () => {
    const { outcome } = await probe({ target: `${site.url}/ftp` });
    expect(outcome.error).toMatchObject({
      name: 'RedirectError',
      message: 'the redirect to ftp://files.example/ was not followed: only http and https are',
    });
    expect(outcome.response?.statusCode).toBe(302);
  });

  it('does not let a public target lead the run into a private range', async () => {
    // Loopback stands in for a public address here: only 169.254.0.0/16 is private to this run.
    const nonPublic = (address: string) => (address.startsWith('169.254.') ? 'link-local' : null);
    const { outcome, hops } = await probe({ target: `${site.url}/metadata` }, { nonPublic });
    expect(outcome.error).toMatchObject({
      name: 'RedirectError',
      message:
        'the redirect to http://169.254.169.254/latest/ leads to a link-local address (169.254.169.254), not followed from a public target',
    });
    expect(hops.at(-1)?.timing.tcp).toBeUndefined();
  });

  it('checks TLS on every hop and reports the certificate that expires first', async () => {
    const { outcome, hops } = await probe({ target: `${longLived.url.replace('localhost', '127.0.0.1')}/` });
    expect(outcome.error).toBeUndefined();
    expect(hops).toHaveLength(3);
    expect(outcome.certificate?.daysRemaining).toBe(4);
    const named = await probe({ target: `${site.url}/to-named-only` });
    expect(named.outcome.error).toMatchObject({
      name: 'TLSError',
      message: "the certificate's names (DNS:localhost) do not include 127.0.0.1",
    });
  });
});

describe('bodies', () => {
  it.each(['gzip', 'deflate', 'br'])(
    'decodes %s for assertions and the stored body; size is the wire',
    async (coding) => {
      const assertions = [{ source: 'TEXT_BODY', property: '', comparison: 'EQUALS', target: 'packed' }];
      const { outcome, decodedSize } = await probe({ target: `${site.url}/encoded?${coding}`, assertions });
      expect(outcome.assertions[0]?.passed).toBe(true);
      expect(outcome.response?.body).toBe('packed');
      expect(outcome.response?.size).toBe(encoded[coding]!.length);
      expect(decodedSize).toBe(6);
    },
  );

  it("sends the check's own accept-encoding instead of ours", async () => {
    const { outcome } = await probe({
      target: `${site.url}/headers`,
      headers: { 'Accept-Encoding': 'identity' },
    });
    const seen = JSON.parse(outcome.response!.body) as Record<string, string>;
    expect(seen['accept-encoding']).toBe('identity');
    expect(outcome.request.headers).not.toHaveProperty('accept-encoding');
  });

  it('stops decoding a decompression bomb at the count', async () => {
    const { outcome, decodedSize } = await probe({ target: `${site.url}/bomb` });
    expect(outcome.error).toBeUndefined();
    expect(outcome.response?.size).toBe(bomb.length);
    expect(decodedSize).toBe(PROBE_DEFAULTS.body.count);
    expect(outcome.response?.body).toHaveLength(1024);
  });
});

describe('what is not valid HTTP', () => {
  it.each([
    ['HTTP/1.1 200 OK\r\nX-Trace: a\x01b\r\n\r\n', 'invalid header value in X-Trace'],
    ['HTTP/1.1 200 OK\r\nBad Name: x\r\n\r\n', 'invalid header name "Bad Name"'],
    ['HTTP/1.1 200 OK\r\nno colon\r\n\r\n', 'invalid header name "no colon"'],
    ['SSH-2.0-OpenSSH\r\n', 'invalid status line "SSH-2.0-OpenSSH"'],
    ['HTTP/1.1 200 OK\r\nX-Ok: tab\there, obs-text \xe9\r\n\r\n', null],
    ['HTTP/1.1 200 OK\r\nX-Cut: a\x01', null],
  ])('%j: %s', (head, said) => {
    expect(invalidHead(Buffer.from(head, 'latin1'))).toBe(said);
  });
});

describe('address ranges a redirect may not enter from a public target', () => {
  it.each([
    ['169.254.169.254', 'link-local'],
    ['127.0.0.1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['192.168.0.1', 'private'],
    ['fd00::1', 'unique-local'],
    ['93.184.216.34', null],
    ['2606:4700::1111', null],
  ])('%s: %s', (address, range) => expect(nonPublicRange(address)).toBe(range));
});
