// Both auth headers on every account endpoint: a missing or unknown key is 401,
// a key of another account than X-Service-Account names is 403.
import type { FastifyRequest } from 'fastify';
import type { AccountConfig } from '../config/schema.js';
import type { Accounts } from '../config/accounts.js';
import { HttpError } from './errors.js';

export function authenticate(accounts: Accounts, req: FastifyRequest): AccountConfig {
  const header = req.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  if (!match)
    throw new HttpError(401, 'send Authorization: Bearer <API key>', [], { 'www-authenticate': 'Bearer' });
  const account = accounts.byKey(match[1]!);
  if (!account) throw new HttpError(401, 'the API key is not valid', [], { 'www-authenticate': 'Bearer' });
  const named = req.headers['x-service-account'];
  if (typeof named !== 'string' || named === '')
    throw new HttpError(401, 'send X-Service-Account: <account id>');
  if (named !== account.id) throw new HttpError(403, 'the API key does not belong to that account');
  return account;
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
