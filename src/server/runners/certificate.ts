// The TLS certificate a run was shown (docs/certificates.md): the leaf's
// fields and the earliest expiry anywhere in the presented chain, since an
// intermediate can expire before the leaf it signed.
import { isIP } from 'node:net';
import { checkServerIdentity, type PeerCertificate, type DetailedPeerCertificate } from 'node:tls';
import type { ResultCertificate } from '../../api/schemas/index.js';
import { daysUntil } from '../../domain/certificate.js';

/** `CN=example.com, O=Example`: a certificate's name as one line. */
function nameOf(name: PeerCertificate['subject'] | undefined): string {
  if (!name) return '';
  return Object.entries(name)
    .flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).map((x) => `${k}=${String(x)}`))
    .join(', ');
}

/** Node's dates ("Dec  7 11:00:29 2026 GMT") as epoch ms; NaN when unreadable. */
const timeOf = (text: string) => Date.parse(text);

/** The presented chain from the leaf up, each certificate once (a root is its own issuer). */
export function presentedChain(leaf: DetailedPeerCertificate): PeerCertificate[] {
  const chain: PeerCertificate[] = [];
  const seen = new Set<string>();
  let at: DetailedPeerCertificate | undefined = leaf;
  while (at && Object.keys(at).length > 0 && !seen.has(at.fingerprint256)) {
    seen.add(at.fingerprint256);
    chain.push(at);
    at = at.issuerCertificate;
  }
  return chain;
}

/** The result's certificate from a TLS socket's peer, or null when none was presented. */
export function certificateOf(leaf: DetailedPeerCertificate, now: number): ResultCertificate | null {
  if (!leaf || Object.keys(leaf).length === 0) return null;
  const validTo = timeOf(leaf.valid_to);
  const validFrom = timeOf(leaf.valid_from);
  if (Number.isNaN(validTo) || Number.isNaN(validFrom)) return null;
  let earliest = validTo;
  for (const c of presentedChain(leaf)) {
    const t = timeOf(c.valid_to);
    if (!Number.isNaN(t) && t < earliest) earliest = t;
  }
  return {
    subject: nameOf(leaf.subject),
    issuer: nameOf(leaf.issuer),
    serialNumber: leaf.serialNumber || null,
    validFrom: new Date(validFrom).toISOString(),
    validTo: new Date(validTo).toISOString(),
    daysRemaining: daysUntil(validTo, now),
    chainValidTo: new Date(earliest).toISOString(),
    chainDaysRemaining: daysUntil(earliest, now),
  };
}

/** The first certificate of the chain that had expired at `now` (the earliest), if any. */
export function expiredIn(
  leaf: DetailedPeerCertificate,
  now: number,
): { subject: string; validTo: string } | null {
  let found: { subject: string; at: number } | null = null;
  for (const c of presentedChain(leaf)) {
    const at = timeOf(c.valid_to);
    if (at < now && (!found || at < found.at)) found = { subject: nameOf(c.subject), at };
  }
  return found && { subject: found.subject, validTo: new Date(found.at).toISOString() };
}

/** Playwright's security details (seconds since the epoch), as a result's certificate with no chain. */
export function certificateFromDetails(
  details: { subjectName?: string; issuer?: string; validFrom?: number; validTo?: number } | null,
  now: number,
): ResultCertificate | null {
  if (!details || details.validTo === undefined || details.validFrom === undefined) return null;
  const validTo = details.validTo * 1000;
  return {
    subject: details.subjectName ?? '',
    issuer: details.issuer ?? '',
    serialNumber: null,
    validFrom: new Date(details.validFrom * 1000).toISOString(),
    validTo: new Date(validTo).toISOString(),
    daysRemaining: daysUntil(validTo, now),
    chainValidTo: null,
    chainDaysRemaining: null,
  };
}

// OpenSSL's words for the verification errors a monitor meets; Node hands a
// socket that was not rejected only the code.
const VERIFY_MESSAGES: Record<string, string> = {
  CERT_HAS_EXPIRED: 'certificate has expired',
  CERT_NOT_YET_VALID: 'certificate is not yet valid',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'self-signed certificate',
  SELF_SIGNED_CERT_IN_CHAIN: 'self-signed certificate in certificate chain',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'unable to get local issuer certificate',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'unable to verify the first certificate',
  CERT_REVOKED: 'certificate revoked',
  ERR_TLS_CERT_ALTNAME_INVALID: "the certificate's names do not include the target's host",
};

/**
 * The error of a certificate that does not name `host` (checked against the target's
 * own host: a name against the DNS SANs, an IP address against the IP SANs), or null
 * when it names it.
 */
export function hostError(host: string, leaf: DetailedPeerCertificate): Error | null {
  // Node reads the subject's CN when a certificate has no DNS names; browsers stopped
  // in 2017 and Go (the exporter) in 2020: a name is matched to the DNS names alone.
  const byCn = isIP(host) === 0 && !/(?:^|, )DNS:/.test(leaf.subjectaltname ?? '');
  // Node also matches a partial wildcard (`f*.example.com`); browsers and Go read a `*`
  // only as a whole first label (RFC 9525, 6.3), so such a name is left out here.
  const partial = (leaf.subjectaltname ?? '').split(', ').filter(isPartialWildcard);
  const read =
    partial.length === 0
      ? leaf
      : { ...leaf, subject: { ...leaf.subject, CN: '' }, subjectaltname: whole(leaf) };
  if (!byCn && !checkServerIdentity(host, read)) return null;
  const names = leaf.subjectaltname ? ` (${leaf.subjectaltname})` : ' (it has no alternative names)';
  const cn = byCn ? ": its subject's CN is not read, as browsers do not read it" : '';
  // Named only where it would have matched: it is then the whole reason.
  const wildcards =
    partial.length && !byCn && !checkServerIdentity(host, leaf)
      ? `: a partial wildcard (${partial.map((n) => n.slice(4)).join(', ')}) is not read, as browsers do not read it`
      : '';
  const error = new Error(
    `the certificate's names${names} do not include ${host}${cn}${wildcards}`,
  ) as Error & {
    code: string;
  };
  error.code = 'ERR_TLS_CERT_ALTNAME_INVALID';
  return error;
}

/** A DNS name whose first label holds a `*` beside other characters (`f*.example.com`). */
function isPartialWildcard(name: string): boolean {
  if (!name.startsWith('DNS:')) return false;
  const first = name.slice(4).split('.')[0]!;
  return first.includes('*') && first !== '*';
}

/** The certificate's alternative names without its partial wildcards. */
const whole = (leaf: DetailedPeerCertificate) =>
  (leaf.subjectaltname ?? '')
    .split(', ')
    .filter((n) => !isPartialWildcard(n))
    .join(', ');

/** Of the certificates of a run's hops, the one whose chain expires first. */
export function earliestExpiring(
  certificates: ReadonlyArray<ResultCertificate | null | undefined>,
): ResultCertificate | null | undefined {
  const expiry = (c: ResultCertificate) => Date.parse(c.chainValidTo ?? c.validTo);
  let earliest: ResultCertificate | null | undefined;
  for (const c of certificates) {
    if (c && (!earliest || expiry(c) < expiry(earliest))) earliest = c;
    else if (earliest === undefined && c === null) earliest = null;
  }
  return earliest;
}

/**
 * The error of a handshake whose certificate did not verify, with its code (so it is
 * named a TLSError). An expired certificate says which one and when it expired.
 */
export function verifyError(code: string, leaf: DetailedPeerCertificate, now: number): Error {
  const expired = expiredIn(leaf, now);
  const words = VERIFY_MESSAGES[code] ?? code;
  const message =
    expired && (code === 'CERT_HAS_EXPIRED' || !VERIFY_MESSAGES[code])
      ? `certificate expired on ${expired.validTo} (${expired.subject})`
      : expired
        ? `${words}; certificate expired on ${expired.validTo} (${expired.subject})`
        : words;
  const error = new Error(message) as Error & { code: string };
  error.code = code;
  return error;
}
