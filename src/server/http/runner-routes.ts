// /v1/runner/ (issue 12): where `checkwall runner` processes take the runs of
// their remote location and hand the results back (wire: api/runner-schemas.ts).
// A runner token opens these two endpoints for its one location and nothing
// else; an API key does not open them, and a runner token opens no account endpoint.
import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  RunIdParamsSchema,
  RunnerClaimBodySchema,
  RunnerResultBodySchema,
  RunnerResultItemSchema,
  RunnerResultsBodySchema,
  type RunnerResultBody,
} from '../../api/runner-schemas.js';
import type { CheckResult } from '../../api/schemas.js';
import type { AccountConfig, CheckConfig } from '../config/schema.js';
import type { RunResult } from '../runners/types.js';
import { CLAIM_GATHER_MS, type RunnerHub, type RunnerPlace } from '../schedule/runner-hub.js';
import { toJob } from '../runners/job-protocol.js';
import type { ClaimedRun, RunQueue } from '../storage/types.js';
import ipaddr from 'ipaddr.js';
import { bearer, refuseUnread, unauthorized } from './auth.js';
import { HttpError, parseOr400 } from './errors.js';

export interface RunnerRouteDeps {
  hub: RunnerHub;
  queue: Pick<RunQueue, 'claimRuns' | 'findRun' | 'releaseRuns'>;
  /** Stores a run's result through the queue (once) and moves its status; false when the run is not the token's. */
  complete(run: Pick<ClaimedRun, 'id' | 'token' | 'accountId'>, result: RunResult): Promise<boolean>;
  maxStoredBodyBytes(): number;
  /** The account's check by id, indexed (accounts.ts): every claimed and reported run looks its check up. */
  check(account: AccountConfig, checkId: string): CheckConfig | undefined;
  /** How long a runner holds the runs it claims before they are given to another. */
  leaseMs: number;
  now: () => number;
  /** Aborts when the service stops: long polls answer at once. */
  closing: AbortSignal;
  log(line: string): void;
}

// A browser run's screenshot rides along, base64: far above the API's 64 KB.
const RESULT_BODY_LIMIT = 12 * 1024 * 1024;
// Between looks at the queue in a long poll: runs whose lease ran out are noticed this soon.
const POLL_STEP_MS = 1_000;
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
  const { hub, queue, now } = deps;
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
    const { account, location } = placeOf(req);
    const body = parseOr400(RunnerClaimBodySchema, req.body ?? {}, 'body');
    if (body.location !== undefined && body.location !== location.id)
      throw new HttpError(403, `this runner token is for location "${location.id}", not "${body.location}"`);
    const gone = AbortSignal.any([deps.closing, closed(reply)]);
    const deadline = now() + body.waitSeconds * 1000;
    hub.seen(account.id, location.id, body.runnerId);
    try {
      // Back just after a claim here took every run then due, and none has fallen due here
      // since that woke no one: the poll waits before it claims (runner-hub.ts mayWaitFirst).
      let runs: ClaimedRun[] = [];
      let claim = body.waitSeconds * 1000 <= CLAIM_GATHER_MS || !hub.mayWaitFirst(account.id, location.id);
      /** When this poll last looked: a run due since that woke no one (it was claiming) is its. */
      let looked = now();
      for (; ; claim = true) {
        if (claim) {
          const token = `${body.runnerId}:${randomUUID()}`;
          looked = now();
          runs = await queue.claimRuns(account.id, location.id, token, looked, deps.leaseMs, body.max);
          if (runs.length < body.max) hub.drained(account.id, location.id, looked);
          // Its runner left while the claim was being made: the runs go back at once, not
          // after their lease, to the next poll (this runner's restarted, or another's).
          if (gone.aborted && runs.length > 0) {
            await giveBack(token, runs);
            return { data: { jobs: [] } };
          }
        }
        const jobs = runs.flatMap((run) => toRunnerJob(run, { account, location }));
        if (jobs.length > 0 || now() >= deadline || gone.aborted) return { data: { jobs } };
        if (hub.missedSince(account.id, location.id, looked)) continue;
        await hub.wait(account.id, location.id, Math.min(POLL_STEP_MS, deadline - now()), gone);
        // Woken for one run: the runs offered in the next moment go in the same claim.
        if (!gone.aborted) await delay(Math.min(CLAIM_GATHER_MS, Math.max(0, deadline - now())));
        // A runner gone (stopped, cut off) or a service stopping: a claim now would hold its
        // runs, unrun, until their lease ran out.
        if (gone.aborted) return { data: { jobs: [] } };
      }
    } finally {
      hub.seen(account.id, location.id, body.runnerId);
    }
  });

  async function giveBack(token: string, claimed: ClaimedRun[]) {
    try {
      await queue.releaseRuns(
        token,
        claimed.map((run) => run.id),
        now(),
      );
    } catch (error) {
      console.error(
        `checkwall: cannot give back ${claimed.length} runs claimed for a runner that left; they go again when their lease ends`,
        error,
      );
    }
  }

  function toRunnerJob(run: ClaimedRun, { account, location }: RunnerPlace) {
    const check = deps.check(account, run.checkId);
    // A check removed since it was offered: nothing to run; its run lapses with its lease.
    if (!check) return [];
    return [
      {
        runId: run.id,
        claimToken: run.token,
        dueAt: new Date(run.dueAt).toISOString(),
        leaseUntil: new Date(run.leaseUntil).toISOString(),
        attempt: run.attempt,
        job: toJob(account.id, check, location, 'schedule', deps.maxStoredBodyBytes()),
      },
    ];
  }

  /** Stores one reported result, or throws the HttpError that refuses it. */
  async function accept({ account, location }: RunnerPlace, runId: string, body: RunnerResultBody) {
    const run = await queue.findRun(runId);
    if (!run || run.accountId !== account.id || run.locationId !== location.id || run.token === null)
      throw new HttpError(404, `run "${runId}" was never given to a runner of ${location.id}`);
    const check = deps.check(account, run.checkId);
    const { result } = body;
    if (result.checkId !== run.checkId || result.location.id !== run.locationId || !check)
      throw new HttpError(
        422,
        `run "${runId}" is check "${run.checkId}" at ${run.locationId}; this result is "${result.checkId}" at ${result.location.id}`,
      );
    const late = () =>
      new HttpError(409, `run "${runId}" is no longer this runner's (given again, or done): drop its result`);
    if (run.token !== body.claimToken || run.completedAt !== null) throw late();
    // The service names what it stores: the run's id (one result per run), its check and location.
    const stored: CheckResult = {
      ...result,
      id: run.id,
      checkName: check.name,
      checkType: check.type,
      location: { id: location.id, name: location.name, region: location.region },
      triggeredBy: 'schedule',
    };
    const screenshot = body.screenshot === undefined ? undefined : Buffer.from(body.screenshot, 'base64');
    const held = { id: run.id, token: body.claimToken, accountId: account.id };
    const ok = await deps.complete(held, { ...stored, ...(screenshot ? { screenshot } : {}) });
    if (!ok) throw late();
  }

  const seenBy = (place: RunnerPlace, claimToken: string) =>
    hub.seen(
      place.account.id,
      place.location.id,
      /^[A-Za-z0-9._-]{1,100}(?=:)/.exec(claimToken)?.[0] ?? 'unnamed',
    );

  app.post(
    '/v1/runner/runs/:runId/result',
    { bodyLimit: RESULT_BODY_LIMIT, onRequest: authRunner },
    async (req) => {
      const place = placeOf(req);
      const { runId } = parseOr400(RunIdParamsSchema, req.params, 'path');
      const body = parseOr400(RunnerResultBodySchema, req.body, 'body');
      seenBy(place, body.claimToken);
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
          if (i === 0) seenBy(place, item.claimToken);
          await accept(place, item.runId, item);
          return { runId, status: 200 };
        } catch (error) {
          if (error instanceof HttpError) return { runId, status: error.statusCode, message: error.message };
          console.error(`checkwall: cannot store the result of run ${runId}`, error);
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
  // the end of every poll (1 % of an instance's main thread in bench:scale).
  reply.raw.once('close', () => controller.abort(ANSWERED));
  return controller.signal;
}
const ANSWERED = new Error('the poll was answered or its runner went away');
