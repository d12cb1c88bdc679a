// The TLS certificate a run was shown (issue 35), against loopback HTTPS targets
// whose chains are made in the test: a leaf expiring in 10 days under an
// intermediate expiring in 5, and a leaf that expired 2 days ago.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CheckResultSchema } from '../../../src/api/schemas/index.js';
import { AccountConfigSchema, CheckConfigSchema } from '../../../src/server/config/schema.js';
import { hostError } from '../../../src/server/runners/certificate.js';
import { runCheck } from '../../../src/server/runners/index.js';
import type { DetailedPeerCertificate } from 'node:tls';
import type { RunContext } from '../../../src/server/runners/types.js';
import { makeChain, serveChain, type Chain, type HttpsTarget } from '../../helpers/certificates.js';

const DAY_MS = 86_400_000;
const account = AccountConfigSchema.parse({
  id: '0b6f3c52-7c1e-4d8a-9f2b-3c4d5e6f7a8b',
  apiKeys: ['k'.repeat(16)],
});
const location = { id: 'eu-west', name: 'Frankfurt', region: 'eu-central-1' };
const ctx: RunContext = {
  maxStoredBodyBytes: 1024,
  signal: new AbortController().signal,
  now: Date.now,
};

let soon: Chain;
let expired: Chain;
const targets: HttpsTarget[] = [];
beforeAll(async () => {
  soon = await makeChain({ leafDays: 10, intermediateDays: 5 });
  expired = await makeChain({ leafDays: -2, intermediateDays: 30, name: 'Old' });
  targets.push(await serveChain(soon), await serveChain(expired));
});
afterAll(() => Promise.all(targets.map((t) => t.close())));

const run = async (over: Record<string, unknown>) => {
  const check = CheckConfigSchema.parse({
    id: 'c',
    name: 'C',
    type: 'api',
    locations: ['eu-west'],
    timeoutMs: 5000,
    ...over,
  });
  return CheckResultSchema.parse(await runCheck(account, check, location, ctx, 'manual'));
};
const floorDays = (at: Date, from: number) => Math.floor((at.getTime() - from) / DAY_MS);

describe('the certificate of an HTTPS run', () => {
  it("carries the leaf's fields and the chain's earliest expiry (the intermediate's)", async () => {
    const before = Date.now();
    const r = await run({ target: `${targets[0]!.url}/`, insecureTls: true });
    expect(r.status).toBe('success');
    const { leaf, intermediate } = soon;
    expect(r.certificate).toEqual({
      subject: 'CN=localhost',
      issuer: 'CN=Checkwall Test Intermediate CA',
      serialNumber: leaf.serialNumber.toUpperCase(),
      validFrom: leaf.cert.notBefore.toISOString(),
      validTo: leaf.notAfter.toISOString(),
      daysRemaining: floorDays(leaf.notAfter, before),
      chainValidTo: intermediate.notAfter.toISOString(),
      chainDaysRemaining: floorDays(intermediate.notAfter, before),
    });
    // Made 10 and 5 days ahead a moment ago: 9 and 4 whole days are left.
    expect(r.certificate).toMatchObject({ daysRemaining: 9, chainDaysRemaining: 4 });
  });

  it('is recorded on a run that fails its verification too, and the error names the expiry', async () => {
    const r = await run({ target: `${targets[1]!.url}/` });
    expect(r).toMatchObject({ status: 'failed', response: null, error: { name: 'TLSError' } });
    expect(r.error?.message).toBe(
      `certificate expired on ${expired.leaf.notAfter.toISOString()} (CN=localhost)`,
    );
    expect(r.certificate).toMatchObject({ subject: 'CN=localhost', daysRemaining: -3 });
  });

  it('fails an untrusted chain without insecureTls, and still keeps its certificate', async () => {
    const r = await run({ target: `${targets[0]!.url}/` });
    expect(r).toMatchObject({
      status: 'failed',
      error: { name: 'TLSError', message: 'self-signed certificate in certificate chain' },
    });
    expect(r.certificate?.chainDaysRemaining).toBe(4);
  });

  it('sends a name with a trailing dot without it (RFC 6066), and verifies it against the certificate', async () => {
    const names: unknown[] = [];
    const seen = (socket: { servername?: unknown }) => names.push(socket.servername);
    targets[0]!.server.on('secureConnection', seen);
    const check = CheckConfigSchema.parse({
      id: 'c',
      name: 'C',
      type: 'api',
      locations: ['eu-west'],
      target: `${targets[0]!.url.replace('localhost', 'localhost.')}/`,
    });
    const dotted = { ...ctx, ca: soon.root.pem, lookup: () => Promise.resolve({ address: '127.0.0.1' }) };
    const r = await runCheck(account, check, location, dotted, 'manual');
    targets[0]!.server.off('secureConnection', seen);
    expect(r).toMatchObject({ status: 'success', response: { statusCode: 200 } });
    expect(names).toEqual(['localhost']);
  });

  it.each([
    ['daysRemaining', 'GREATER_THAN', '14', false, '9'],
    ['daysRemaining', 'LESS_THAN', '14', true, undefined],
    ['chainDaysRemaining', 'GREATER_THAN', '7', false, '4'],
    ['chainDaysRemaining', 'LESS_THAN', '5', true, undefined],
  ])(
    'a CERTIFICATE assertion on %s %s %s passes: %s',
    async (property, comparison, target, passed, actual) => {
      const r = await run({
        target: `${targets[0]!.url}/`,
        insecureTls: true,
        assertions: [{ source: 'CERTIFICATE', property, comparison, target }],
      });
      expect(r.assertions[0]).toMatchObject({ source: 'CERTIFICATE', property, passed });
      expect(r.assertions[0]?.actual).toBe(actual);
      expect(r.status).toBe(passed ? 'success' : 'failed');
    },
  );

  it('a CERTIFICATE assertion in the config takes a days property, GREATER_THAN or LESS_THAN and a number', () => {
    expect(() =>
      CheckConfigSchema.parse({
        id: 'c',
        name: 'C',
        type: 'api',
        locations: ['x'],
        target: 'https://a',
        assertions: [{ source: 'CERTIFICATE', property: 'days', comparison: 'EQUALS', target: 'x' }],
      }),
    ).toThrow(/daysRemaining or chainDaysRemaining[\s\S]*GREATER_THAN or LESS_THAN[\s\S]*whole number/);
  });
});

describe("a certificate's names", () => {
  const leaf = (subjectaltname: string, CN = 'foo.example.com') =>
    ({ subject: { CN }, subjectaltname }) as unknown as DetailedPeerCertificate;

  it('match a whole-label wildcard and never a partial one, as browsers and the exporter read them', () => {
    expect(hostError('foo.example.com', leaf('DNS:*.example.com'))).toBeNull();
    expect(hostError('foo.example.com', leaf('DNS:f*.example.com, DNS:www.example.com'))?.message).toBe(
      "the certificate's names (DNS:f*.example.com, DNS:www.example.com) do not include foo.example.com: " +
        'a partial wildcard (f*.example.com) is not read, as browsers do not read it',
    );
    // Left out, the partial wildcard leaves no DNS name: the CN is still not read.
    expect(hostError('foo.example.com', leaf('DNS:*o.example.com'))).toMatchObject({
      code: 'ERR_TLS_CERT_ALTNAME_INVALID',
    });
    expect(hostError('www.example.com', leaf('DNS:f*.example.com, DNS:www.example.com'))).toBeNull();
    // One it would not have matched anyway is not named as the reason.
    expect(hostError('bar.other.com', leaf('DNS:f*.example.com'))?.message).toBe(
      "the certificate's names (DNS:f*.example.com) do not include bar.other.com",
    );
  });
});
