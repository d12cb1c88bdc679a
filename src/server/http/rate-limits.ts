// What strangers may cost the service (docs/security.md). Per client address (the
// socket's, or X-Forwarded-For's behind a proxy with http.trustProxy): failed
// authentications, on the account and runner endpoints alike, and pings of
// unknown heartbeat tokens share one budget a minute; public dashboard reads
// have their own a second. Past either, 429 with Retry-After. A request with
// valid credentials never counts here: it is limited per key (auth.ts).
// Counted by @fastify/rate-limit's stores (LRU, bounded), asked only when a
// request fails, so a stranger's flood costs a counter, not a lookup of ours.
// Past the budget the 429 is held back (holdRefusedSeconds, at most its
// Retry-After) before it is answered: a flooding client waits on its open
// connection instead of asking again at once, so a flood of 200 connections
// costs a few requests a second, not every turn of the event loop. The holds are
// bounded per address and in all; past those, the 429 goes at once and closes
// its connection.
import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../../domain/clock.js';
import type { HttpConfig } from '../config/schema.js';
import { etagOf, matchesIfNoneMatch } from './etag.js';
import { HttpError } from './errors.js';

export interface StrangerLimits {
  /** Counts a failed authentication of the request's address; throws 429 once past the budget. */
  failed(req: FastifyRequest): Promise<void>;
  /** Counts a public read of the request's address; throws 429 once past the budget. */
  publicRead(req: FastifyRequest): Promise<void>;
}

const MINUTE_MS = 60_000;
const SECOND_MS = 1_000;

/** Refused requests held at once from one address, and from all: each holds a socket and a request. */
export const HOLD_LIMITS = { perAddress: 50, total: 2_000 };

export async function createStrangerLimits(
  app: FastifyInstance,
  settings: () => HttpConfig['rateLimit'],
  clock: Clock,
): Promise<StrangerLimits> {
  await app.register(fastifyRateLimit, { global: false });
  // Read at each request: a reload's new budget applies at once.
  const failed = app.createRateLimit({ max: () => settings().failedAuthPerMinute, timeWindow: MINUTE_MS });
  const reads = app.createRateLimit({ max: () => settings().publicReadsPerSecond, timeWindow: SECOND_MS });
  const holds = createHolds(clock, HOLD_LIMITS);
  app.addHook('onClose', (_app, done) => {
    holds.releaseAll();
    done();
  });
  const check = async (limit: typeof failed, req: FastifyRequest, what: string): Promise<void> => {
    const state = await limit(req);
    if (state.isAllowed || !state.isExceeded) return;
    const wait = Math.max(1, state.ttlInSeconds);
    const held = await holds.hold(req.ip, Math.min(wait, settings().holdRefusedSeconds) * SECOND_MS);
    throw new HttpError(429, `too many ${what} from this address; retry in ${wait} s`, [], {
      'retry-after': String(wait),
      // Not held (the holds are full): the connection goes with the answer.
      ...(held ? {} : { connection: 'close' }),
    });
  };
  return {
    failed: (req) => check(failed, req, 'failed authentications'),
    publicRead: (req) => check(reads, req, 'public reads'),
  };
}

/**
 * Waits of refused requests, bounded per address and in all. `hold` resolves true
 * after `ms` (at once when `ms` is 0: holding is off), or false at once when the
 * bounds are full (the caller closes the connection); `releaseAll` ends every wait
 * (the service is closing).
 */
export function createHolds(clock: Clock, limits: { perAddress: number; total: number }) {
  const perAddress = new Map<string, number>();
  const waiting = new Set<() => void>();
  return {
    async hold(address: string, ms: number): Promise<boolean> {
      if (ms <= 0) return true;
      const mine = perAddress.get(address) ?? 0;
      if (mine >= limits.perAddress || waiting.size >= limits.total) return false;
      perAddress.set(address, mine + 1);
      let release = (): void => {};
      try {
        await new Promise<void>((resolve) => {
          const timer = clock.setTimeout(() => release(), ms).unref();
          release = () => {
            clock.clearTimeout(timer);
            waiting.delete(release);
            resolve();
          };
          waiting.add(release);
        });
      } finally {
        const left = (perAddress.get(address) ?? 1) - 1;
        if (left > 0) perAddress.set(address, left);
        else perAddress.delete(address);
      }
      return true;
    },
    releaseAll(): void {
      for (const release of [...waiting]) release();
    },
    /** Requests held now, for tests and the service's own figures. */
    size: () => waiting.size,
  };
}

interface Kept {
  body: string | Buffer;
  etag: string;
  headers: Record<string, string>;
  at: number;
}

/**
 * The public dashboard's answers, each kept for `ttlMs`: a flood of strangers reading
 * one dashboard costs one answer a second, not one each. Only 200s are kept, at most
 * `max` of them (the oldest goes first).
 */
export function createPublicAnswers(now: () => number, ttlMs = 1_000, max = 1_000) {
  const kept = new Map<string, Kept>();
  return {
    /** Answers from the cache when it holds a fresh answer; true when it did. */
    serve(req: FastifyRequest, reply: FastifyReply): boolean {
      const answer = kept.get(req.url);
      if (!answer || now() - answer.at >= ttlMs) return false;
      void reply.headers(answer.headers).header('etag', answer.etag);
      if (matchesIfNoneMatch(req.headers['if-none-match'], answer.etag)) void reply.code(304).send();
      else void reply.send(answer.body);
      return true;
    },
    /** Keeps a 200 the handler just built (an onSend hook), with the ETag it carries or one of its bytes. */
    keep(req: FastifyRequest, reply: FastifyReply, payload: unknown): void {
      if (reply.statusCode !== 200 || !(typeof payload === 'string' || Buffer.isBuffer(payload))) return;
      const etag = String(reply.getHeader('etag') ?? etagOf(payload));
      void reply.header('etag', etag);
      const headers: Record<string, string> = {};
      for (const name of ['content-type', 'cache-control']) {
        const value = reply.getHeader(name);
        if (value !== undefined) headers[name] = String(value);
      }
      kept.delete(req.url);
      if (kept.size >= max) kept.delete(kept.keys().next().value!);
      kept.set(req.url, { body: payload, etag, headers, at: now() });
    },
  };
}
