/**
 * Certificate expiry (docs/certificates.md).
 *
 *   - Days remaining are whole days, rounded down, negative once expired: 9.9 days
 *     left is 9, half a day past expiry is -1.
 *   - A check's certificate expires when the first certificate of its presented
 *     chain does (the leaf, or an intermediate that expires before it).
 *   - An expiry threshold N is crossed when fewer than N days remain. A run that
 *     finds several newly crossed sends one notice, for the lowest; the higher
 *     ones count as sent with it (two notices of one certificate in one moment
 *     say nothing the lower does not).
 *   - A check's warning ends when the newest certificate each location showed is
 *     outside every threshold: one location still serving the old certificate (a
 *     CDN edge not yet renewed) keeps it, and a location that never showed one
 *     has no say.
 */
export const DAY_MS = 86_400_000;

export const CERTIFICATE_EXPIRY_DEFAULTS: readonly number[] = [14, 7, 1];

export function daysUntil(at: number, now: number): number {
  return Math.floor((at - now) / DAY_MS);
}

/** When `daysUntil(at, now)` next changes (it only falls as time goes on). */
export function daysChangeAt(at: number, now: number): number {
  return at - daysUntil(at, now) * DAY_MS + 1;
}

/** Whether a check's results can carry a certificate: an `https://` target of a check that is not tcp or a heartbeat. */
export const mayPresentCertificate = (check: { type: string; target: string }) =>
  check.type !== 'tcp' && check.type !== 'heartbeat' && /^https:/i.test(check.target);

/** What a result says of its certificate, as expiry needs it. */
export interface SeenCertificate {
  serialNumber: string | null;
  subject: string;
  validTo: string;
  chainValidTo: string | null;
}

/** The moment the certificate stops working: the earliest expiry of its chain. */
export const expiresAt = (c: SeenCertificate): number =>
  Math.min(Date.parse(c.validTo), c.chainValidTo === null ? Infinity : Date.parse(c.chainValidTo));

/** One certificate as notices know it: a renewed leaf or intermediate is another one. */
export const certificateKey = (c: SeenCertificate): string =>
  `${c.serialNumber ?? c.subject}@${new Date(expiresAt(c)).toISOString()}`;

/** The thresholds crossed with `daysRemaining` left, not yet in `sent`; [] or [lowest, ...the rest]. */
export function newlyCrossed(
  daysRemaining: number,
  thresholds: readonly number[],
  sent: ReadonlySet<number>,
): number[] {
  return thresholds.filter((t) => daysRemaining < t && !sent.has(t)).sort((a, b) => a - b);
}

/** Whether a check's certificate warning has ended, given each location's newest certificate. */
export function warningEnded(
  newest: readonly SeenCertificate[],
  thresholds: readonly number[],
  now: number,
): boolean {
  return newest.every((c) => !thresholds.some((t) => daysUntil(expiresAt(c), now) < t));
}
