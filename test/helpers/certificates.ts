/// <reference lib="dom" />
// Test certificates made in the test (issue 35): a root CA, an intermediate and a
// leaf for localhost and 127.0.0.1, each with the lifetime a test asks for, and a
// loopback HTTPS server presenting the leaf with its chain. Nothing is trusted by
// the system: a check of it runs with insecureTls, or fails its verification.
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { IncomingMessage, ServerResponse } from 'node:http';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

const DAY_MS = 86_400_000;
const ALG = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

export interface Issued {
  cert: x509.X509Certificate;
  keys: CryptoKeyPair;
  pem: string;
  /** The key as PKCS#8 PEM, for node:https. */
  keyPem: string;
  subject: string;
  serialNumber: string;
  notAfter: Date;
}

async function issue(
  subject: string,
  days: { from: number; to: number },
  now: number,
  issuer: Issued | null,
  leaf: boolean,
  names: LeafNames = { dns: ['localhost'], ip: ['127.0.0.1'] },
): Promise<Issued> {
  const keys = (await webcrypto.subtle.generateKey(ALG, true, ['sign', 'verify'])) as CryptoKeyPair;
  const serialNumber = Array.from(webcrypto.getRandomValues(new Uint8Array(8)), (b) =>
    b.toString(16).padStart(2, '0'),
  )
    .join('')
    .replace(/^[89a-f]/, '1');
  const altNames = [
    ...names.dns.map((value) => ({ type: 'dns' as const, value })),
    ...names.ip.map((value) => ({ type: 'ip' as const, value })),
  ];
  const extensions: x509.Extension[] = leaf
    ? [
        new x509.BasicConstraintsExtension(false, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
        // No names at all: a leaf named by its subject's CN alone, as before 2017.
        ...(altNames.length > 0 ? [new x509.SubjectAlternativeNameExtension(altNames)] : []),
      ]
    : [
        new x509.BasicConstraintsExtension(true, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      ];
  extensions.push(await x509.SubjectKeyIdentifierExtension.create(keys.publicKey));
  if (issuer) extensions.push(await x509.AuthorityKeyIdentifierExtension.create(issuer.keys.publicKey));
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber,
    subject,
    issuer: issuer?.subject ?? subject,
    notBefore: new Date(now + days.from * DAY_MS),
    notAfter: new Date(now + days.to * DAY_MS),
    signingAlgorithm: ALG,
    publicKey: keys.publicKey,
    signingKey: (issuer ?? { keys }).keys.privateKey,
    extensions,
  });
  const pkcs8 = await webcrypto.subtle.exportKey('pkcs8', keys.privateKey);
  const keyPem = x509.PemConverter.encode(pkcs8, 'PRIVATE KEY');
  return { cert, keys, pem: cert.toString('pem'), keyPem, subject, serialNumber, notAfter: cert.notAfter };
}

/** The leaf's subject alternative names (by default localhost and 127.0.0.1; none: no extension). */
export interface LeafNames {
  dns: string[];
  ip: string[];
}

export interface Chain {
  root: Issued;
  intermediate: Issued;
  leaf: Issued;
}

/**
 * A root (a year), an intermediate and a leaf whose lifetimes end `intermediateDays`
 * and `leafDays` from `now` (negative: expired that long ago).
 */
export async function makeChain(opts: {
  leafDays: number;
  intermediateDays: number;
  now?: number;
  /** Keeps the CAs of two chains of one test apart. */
  name?: string;
  /** The leaf's names, when not localhost and 127.0.0.1. */
  names?: LeafNames;
}): Promise<Chain> {
  const now = opts.now ?? Date.now();
  const name = opts.name ?? 'Checkwall Test';
  const root = await issue(`CN=${name} Root CA`, { from: -30, to: 365 }, now, null, false);
  const intermediate = await issue(
    `CN=${name} Intermediate CA`,
    { from: -30, to: opts.intermediateDays },
    now,
    root,
    false,
  );
  const leaf = await issue(
    `CN=localhost`,
    { from: -30, to: opts.leafDays },
    now,
    intermediate,
    true,
    opts.names,
  );
  return { root, intermediate, leaf };
}

export interface HttpsTarget {
  url: string;
  server: Server;
  /** Presents another chain from the next connection on (a renewed certificate). */
  present(chain: Chain): void;
  close(): Promise<void>;
}

/** A loopback HTTPS server presenting the chain's leaf with the intermediate and root, answering 200 "ok". */
export async function serveChain(
  chain: Chain,
  handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) =>
    void res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'),
): Promise<HttpsTarget> {
  const options = (c: Chain) => ({
    key: c.leaf.keyPem,
    cert: [c.leaf.pem, c.intermediate.pem, c.root.pem].join('\n'),
  });
  const server = createServer(options(chain), handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://localhost:${port}`,
    server,
    present: (next) => server.setSecureContext(options(next)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
