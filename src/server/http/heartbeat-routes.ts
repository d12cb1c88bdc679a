// The ping URLs of heartbeat checks (docs/service.md, "Heartbeats"), GET or POST:
// /v1/heartbeats/<token> and /v1/heartbeats/<token>/<start|fail|log|0-255>, with an
// optional `?rid=`. The token is checked by the guard (guard.ts) before any body is read.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { PathParamSchema } from '../../api/schemas/index.js';
import type { Accounts } from '../config/accounts.js';
import { parseSignal, PingQuerySchema, SIGNAL_HELP, type HeartbeatSignals } from '../heartbeats/signals.js';
import { HttpError, parseOr400 } from './errors.js';
import { readPingBody, type PingBody } from './ping-body.js';

const PingParams = z.object({ token: PathParamSchema, signal: z.string().max(16).optional() });

export function registerHeartbeatRoutes(
  app: FastifyInstance,
  deps: {
    accounts: Accounts;
    /** Absent (tests of the reads alone): a ping only records its time. */
    heartbeats?: HeartbeatSignals | undefined;
    recordPing: (accountId: string, checkId: string, at: number) => Promise<void>;
    now: () => number;
  },
): void {
  const ping = async (req: FastifyRequest) => {
    const { token, signal: part } = parseOr400(PingParams, req.params, 'path');
    const found = deps.accounts.heartbeat(token);
    if (!found) throw new HttpError(404, 'no heartbeat check has that token');
    const signal = parseSignal(part);
    if (!signal) throw new HttpError(400, `the signal "${part}" ${SIGNAL_HELP}`);
    const { rid } = parseOr400(PingQuerySchema, req.query, 'query');
    const read = req.body as PingBody | undefined;
    const body = read && read.size > 0 ? read : undefined;
    if (!deps.heartbeats) await deps.recordPing(found.account.id, found.check.id, deps.now());
    else
      await deps.heartbeats.receive(found.account, found.check, signal, {
        rid: typeof rid === 'string' ? rid : null,
        body,
        method: req.method,
      });
    return { ok: true };
  };
  for (const url of ['/v1/heartbeats/:token', '/v1/heartbeats/:token/:signal']) app.get(url, ping);
  // A job pings however its tool posts (`curl -d ...` sends a form, others text): whatever
  // the body, it is read as bytes, its end kept as the job's output (ping-body.ts).
  void app.register((scope, _opts, done) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', readPingBody);
    for (const url of ['/v1/heartbeats/:token', '/v1/heartbeats/:token/:signal']) scope.post(url, ping);
    done();
  });
}
