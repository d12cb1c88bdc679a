// Both auth headers on every account endpoint, checked in an onRequest hook:
// before a body is read, so a stranger's request costs a header parse. Whatever
// is wrong with the credentials (no key, an unknown key, no account named) the
// answer is the same 401, so it never tells a valid key from an invalid one;
// a valid key naming another account than its own is 403.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Accounts, KeyHolder } from '../config/accounts.js';
import { digestOf } from '../config/digest.js';
import { HttpError } from './errors.js';

export const UNAUTHORIZED_MESSAGE =
  'the credentials are missing or not valid: send Authorization: Bearer <API key> and X-Service-Account: <account id>';

/** A route whose key alone names the account (GET /metrics) asks for the key only. */
const KEY_ALONE_MESSAGE =
  'the credentials are missing or not valid: send Authorization: Bearer <API key of the read role or more>';

/** The 401 of every refused credential, with its WWW-Authenticate. */
export const unauthorized = (message = UNAUTHORIZED_MESSAGE) =>
  new HttpError(401, message, [], { 'www-authenticate': 'Bearer' });

/** The bearer token of an Authorization header, or undefined. */
export function bearer(req: FastifyRequest): string | undefined {
  const header = req.headers.authorization;
  return typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header)?.[1] : undefined;
}

export interface Authenticated extends KeyHolder {
  /** Names the key (its digest, never the key) for the per-key rate limit. */
  keyId: string;
}

/**
 * The key's holder. `keyAlone`: the key names its account (GET /metrics, where Prometheus
 * sends a bearer token only; keys are unique across accounts, config/load.ts), and
 * X-Service-Account, when sent, must still name that account.
 */
export function authenticate(accounts: Accounts, req: FastifyRequest, keyAlone = false): Authenticated {
  const key = bearer(req);
  const sent = req.headers['x-service-account'];
  const holder = key === undefined ? undefined : accounts.byKey(key);
  const named = keyAlone && sent === undefined ? holder?.account.id : sent;
  if (!holder || typeof named !== 'string' || named === '')
    throw unauthorized(keyAlone ? KEY_ALONE_MESSAGE : UNAUTHORIZED_MESSAGE);
  // Account ids are UUIDs, in whatever case a client writes them.
  if (named.toLowerCase() !== holder.account.id.toLowerCase())
    throw new HttpError(403, 'the API key does not belong to that account');
  return { ...holder, keyId: digestOf(key!).toString('hex') };
}

/**
 * An answer refused before its body was read: the connection closes after it,
 * so the body announced is never read (nor read and dropped) on this socket.
 */
export function refuseUnread(req: FastifyRequest, reply: FastifyReply): void {
  const announced = req.headers['content-length'] ?? req.headers['transfer-encoding'];
  if (announced !== undefined && announced !== '0') void reply.header('connection', 'close');
}

/** A token bucket per key: generous, so only a runaway client ever sees 429. */
export function createRateLimiter(perSecond: number, burst: number, now: () => number = Date.now) {
  const buckets = new Map<string, { tokens: number; at: number }>();
  return (key: string) => {
    const t = now();
    const b = buckets.get(key) ?? { tokens: burst, at: t };
    b.tokens = Math.min(burst, b.tokens + ((t - b.at) / 1000) * perSecond);
    b.at = t;
    buckets.set(key, b);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return;
    }
    const wait = Math.ceil((1 - b.tokens) / perSecond);
    throw new HttpError(429, `too many requests; retry in ${wait} s`, [], { 'retry-after': String(wait) });
  };
}
