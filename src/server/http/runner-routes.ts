// /v1/runner/ (docs/runners.md): where `checkwall runner` processes take the runs of
// their remote location and hand the results back (wire: api/schemas/runner.ts).
// A runner token opens these two endpoints for its one location and nothing
// else; an API key does not open them, and a runner token opens no account endpoint.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  RunIdParamsSchema,
  RunnerClaimBodySchema,
  RunnerResultBodySchema,
  RunnerResultItemSchema,
  RunnerResultsBodySchema,
  type RunnerResultBody,
} from '../../api/schemas/runner.js';
import ipaddr from 'ipaddr.js';
import type { Claimed, Claims } from '../schedule/claims.js';
import type { RunnerHub, RunnerPlace } from '../schedule/runner-hub.js';
import { toJob } from '../runners/job-protocol.js';
import { bearer, refuseUnread, unauthorized } from './auth.js';
import { HttpError, parseOr400 } from './errors.js';
import { logFailure } from '../storage/observed.js';
import { sanitize } from '../../domain/sanitize.js';

export interface RunnerRouteDeps {
  /** Which location a runner token opens. */
  hub: Pick<RunnerHub, 'byToken'>;
  /** The claim protocol: these routes translate it to HTTP. */
  claims: Claims;
  maxStoredBodyBytes(): number;
  log(line: string): void;
}

// A browser run's screenshot rides along, base64: far above the API's 64 KB.
const RESULT_BODY_LIMIT = 12 * 1024 * 1024;
const REFUSED_NOTED = 1_000;

/** What the app's guards give these routes (app.ts, rate-limits.ts). */
export interface RunnerGuard {
  /** Counts a failed authentication of the request's address; throws 429 once past the budget. */
  failed(req: FastifyRequest): Promise<void>;
  /** Whether any account has a remote location: without one, these routes are not there (404). */
  remote(): boolean;
}

// One answer whatever was wrong with the token: it never tells how close a guess came.
const RUNNER_UNAUTHORIZED = 'the runner token is not valid: send Authorization: Bearer <runner token>';

export function registerRunnerRoutes(app: FastifyInstance, deps: RunnerRouteDeps, guard: RunnerGuard): void {
  const { hub, claims } = deps;
  const refused = new Set<string>();
  const places = new WeakMap<FastifyRequest, RunnerPlace>();

  // An onRequest hook: a request without the token is refused before its body (up to 12 MB) is read.
  const authRunner = async (req: FastifyRequest, reply: FastifyReply) => {
    if (!guard.remote()) {
      refuseUnread(req, reply);
      throw new HttpError(
        404,
        `no route ${req.method} ${req.url.split('?')[0]}: this service has no remote locations`,
      );
    }
    const token = bearer(req);
    const place = token === undefined ? undefined : hub.byToken(token);
    if (place) return void places.set(req, place);
    refuseUnread(req, reply);
    // Once per address, and nothing of the token: a runner retrying a bad token is one line.
    const from = ipaddr.isValid(req.ip) ? req.ip : 'an address that is not one';
    if (!refused.has(from) && refused.size < REFUSED_NOTED) {
      refused.add(from);
      deps.log(`refused a runner token from ${from}: it is no remote location's`);
    }
    await guard.failed(req);
    throw unauthorized(RUNNER_UNAUTHORIZED);
  };
  const placeOf = (req: FastifyRequest): RunnerPlace => {
    const place = places.get(req);
    if (!place) throw unauthorized(RUNNER_UNAUTHORIZED);
    return place;
  };

  app.post('/v1/runner/claim', { onRequest: authRunner }, async (req, reply) => {
    const place = placeOf(req);
    const { location } = place;
    const body = parseOr400(RunnerClaimBodySchema, req.body ?? {}, 'body');
    if (body.location !== undefined && body.location !== location.id)
      throw new HttpError(403, `this runner token is for location "${location.id}", not "${body.location}"`);
    const claimed = await claims.poll(
      place,
      { runnerId: body.runnerId, max: body.max, waitMs: body.waitSeconds * 1000 },
      closed(reply),
    );
    return { data: { jobs: claimed.map((c) => toRunnerJob(c, place)) } };
  });

  function toRunnerJob({ run, check }: Claimed, { account, location }: RunnerPlace) {
    return {
      runId: run.id,
      claimToken: run.token,
      dueAt: new Date(run.dueAt).toISOString(),
      leaseUntil: new Date(run.leaseUntil).toISOString(),
      attempt: run.attempt,
      job: toJob(account.id, check, location, run.triggeredBy, deps.maxStoredBodyBytes()),
    };
  }

  /** Stores one reported result, or throws the HttpError that refuses it. */
  async function accept(place: RunnerPlace, runId: string, body: RunnerResultBody) {
    const { result, claimToken } = body;
    const screenshot = body.screenshot === undefined ? undefined : Buffer.from(body.screenshot, 'base64');
    const done = await claims.complete(place, {
      runId,
      claimToken,
      result,
      ...(screenshot ? { screenshot } : {}),
    });
    switch (done.kind) {
      case 'stored':
        return;
      case 'unknown':
        throw new HttpError(404, `run "${runId}" was never given to a runner of ${place.location.id}`);
      case 'mismatch':
        throw new HttpError(
          422,
          `run "${runId}" is check "${done.run.checkId}" at ${done.run.locationId}; this result is "${result.checkId}" at ${result.location.id}`,
        );
      case 'gone':
        throw new HttpError(
          410,
          `check "${done.run.checkId}" is no longer in the config: run "${runId}" has nothing to store, drop its result`,
        );
      case 'late':
        throw new HttpError(
          409,
          `run "${runId}" is no longer this runner's (given again, or done): drop its result`,
        );
    }
  }

  app.post(
    '/v1/runner/runs/:runId/result',
    { bodyLimit: RESULT_BODY_LIMIT, onRequest: authRunner },
    async (req) => {
      const place = placeOf(req);
      const { runId } = parseOr400(RunIdParamsSchema, req.params, 'path');
      const body = parseOr400(RunnerResultBodySchema, req.body, 'body');
      claims.seenWith(place, body.claimToken);
      await accept(place, runId, body);
      return { data: { stored: true } };
    },
  );

  // Many results in one post, each answered on its own: stored together (the queue's
  // batches), so a runner's results cost one request rather than one each.
  app.post('/v1/runner/results', { bodyLimit: RESULT_BODY_LIMIT, onRequest: authRunner }, async (req) => {
    const place = placeOf(req);
    const { results } = parseOr400(RunnerResultsBodySchema, req.body, 'body');
    const answers = await Promise.all(
      results.map(async (raw, i) => {
        const named = (raw as { runId?: unknown } | null)?.runId;
        let runId = typeof named === 'string' ? named : `results[${i}]`;
        try {
          const item = parseOr400(RunnerResultItemSchema, raw, 'result', `results[${i}].`);
          runId = item.runId;
          if (i === 0) claims.seenWith(place, item.claimToken);
          await accept(place, item.runId, item);
          return { runId, status: 200 };
        } catch (error) {
          if (error instanceof HttpError) return { runId, status: error.statusCode, message: error.message };
          // The run's id as the runner named it: another machine's text, sanitized for the log.
          logFailure(`checkwall: cannot store the result of run ${sanitize(runId)}`, error);
          return { runId, status: 500, message: 'the service could not store this result: post it again' };
        }
      }),
    );
    return { data: { answers } };
  });
}

/** Aborts when the client goes away (a runner stopped mid-poll). */
function closed(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  // With a reason of ours: abort() alone makes a DOMException and captures its stack, at
  // the end of every poll.
  reply.raw.once('close', () => controller.abort(ANSWERED));
  return controller.signal;
}
const ANSWERED = new Error('the poll was answered or its runner went away');
