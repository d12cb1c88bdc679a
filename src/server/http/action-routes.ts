// Acting on checks (docs/actions.md): run now (`/v1/check-runs`) and a person's pause and
// resume. Who may act is the guard's (route-roles.ts, before the body is read); the
// audit trail and the key's name are given (`audit`, `keyName`): this file decides
// only what an action does. Every shape is
// src/api/schemas/actions.ts's.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  CheckRunsCreateSchema,
  CheckRunsQuerySchema,
  MAX_RUNS_PER_REQUEST,
  type CheckRun,
} from '../../api/schemas/actions.js';
import { PathParamSchema } from '../../api/schemas/index.js';
import { checkKey } from '../../domain/keys.js';
import type { Clock } from '../../domain/clock.js';
import type { Accounts } from '../config/accounts.js';
import type { AccountConfig, CheckConfig, LocationConfig } from '../config/schema.js';
import { isRunnable } from '../runners/index.js';
import type { Pauses } from '../schedule/pauses.js';
import type { Maintenance } from '../maintenance/windows.js';
import type { Scheduler } from '../schedule/types.js';
import type { StatusEngine } from '../status/engine.js';
import { SKIP_REASONS } from '../storage/run-queue.js';
import type { Storage, StoredRun } from '../storage/types.js';
import { HttpError, parseOr400, refuseBody } from './errors.js';
import { accountOf } from './guard.js';

export interface ActionEvent {
  action: 'run' | 'pause' | 'resume';
  checkId?: string;
  targetId?: string;
  details: Record<string, unknown>;
}

export interface ActionRouteDeps {
  accounts: Accounts;
  storage: Pick<Storage, 'findRuns'>;
  engine: Pick<StatusEngine, 'statusOf'>;
  clock: Clock;
  scheduler: Pick<Scheduler, 'ask'>;
  pauses: Pick<Pauses, 'of' | 'pause' | 'resume'>;
  /** Windows in pause mode (docs/maintenance.md): a check under one does not run, and resume does not lift it. */
  maintenance?: Pick<Maintenance, 'pauseOver'> | undefined;
  /** Whether a runner of the remote location is in touch now (schedule/runner-hub.ts). */
  runnerConnected(accountId: string, locationId: string): boolean;
  /** Records who did what. */
  audit(req: FastifyRequest, event: ActionEvent): Promise<void>;
  /** The name of the request's key: who paused a check. */
  keyName(req: FastifyRequest): string;
}

/** More runs asked of one check than this in a minute: 429 (no pile-up on a target). */
export const ASKS_PER_CHECK_PER_MINUTE = 10;
const MINUTE_MS = 60_000;

const CheckIdParams = z.object({ checkId: PathParamSchema });
const RunIdParams = z.object({ runId: PathParamSchema });

interface Pick1 {
  account: AccountConfig;
  check: CheckConfig;
  location: LocationConfig;
}

export function registerActionRoutes(app: FastifyInstance, deps: ActionRouteDeps): void {
  const { accounts, clock } = deps;
  const asked = createAskLimit(clock.now);

  app.post('/v1/check-runs', async (req, reply) => {
    const account = accountOf(req);
    const body = parseOr400(CheckRunsCreateSchema, req.body ?? {}, 'body');
    const { checks, leftOut } = select(account, body);
    const places = placesOf(account, checks, body.locations);
    if (places.length > MAX_RUNS_PER_REQUEST)
      throw new HttpError(
        400,
        `this selects ${places.length} runs (check x location), more than ${MAX_RUNS_PER_REQUEST} in one request: ` +
          'name fewer checkIds, groupIds or tags, or narrow it with locations',
      );
    if (places.length === 0)
      throw new HttpError(400, 'the selection holds no check that runs at these locations');
    asked.check(checks.map((c) => checkKey(account.id, c.id)));
    asked.note(checks.map((c) => checkKey(account.id, c.id)));
    const answered = await Promise.all(
      places.map(async (place) => {
        const skip =
          place.location.remote && !deps.runnerConnected(account.id, place.location.id)
            ? SKIP_REASONS.noRunner
            : undefined;
        return deps.scheduler.ask(place, body.triggeredBy, skip);
      }),
    );
    const now = clock.now();
    const data = answered.map(({ run, created }) => toWire(run, now, created));
    for (const check of checks) {
      const runs = data.filter((r) => r.checkId === check.id);
      await deps.audit(req, {
        action: 'run',
        checkId: check.id,
        details: {
          triggeredBy: body.triggeredBy,
          runs: runs.map((r) => ({ runId: r.runId, location: r.location, state: r.state })),
        },
      });
    }
    const meta = leftOut.length > 0 ? { leftOut } : undefined;
    return reply.code(202).send(meta ? { data, meta } : { data });
  });

  app.get('/v1/check-runs', async (req) => {
    const account = accountOf(req);
    const { ids } = parseOr400(CheckRunsQuerySchema, req.query, 'query');
    return { data: await runsOf(account, [...new Set(ids)]) };
  });

  app.get('/v1/check-runs/:runId', async (req) => {
    const account = accountOf(req);
    const { runId } = parseOr400(RunIdParams, req.params, 'path');
    const [run] = await runsOf(account, [runId]);
    return run;
  });

  app.post('/v1/checks/:checkId/pause', async (req) => {
    const account = accountOf(req);
    const check = checkOf(account, req);
    refuseBody(req.body);
    const pause = await deps.pauses.pause({
      accountId: account.id,
      checkId: check.id,
      by: deps.keyName(req),
      since: clock.now(),
    });
    await deps.audit(req, {
      action: 'pause',
      checkId: check.id,
      details: { since: new Date(pause.since).toISOString(), by: pause.by },
    });
    return answer(account, check);
  });

  app.post('/v1/checks/:checkId/resume', async (req) => {
    const account = accountOf(req);
    const check = checkOf(account, req);
    refuseBody(req.body);
    const was = deps.pauses.of(account.id, check.id);
    const resumed = await deps.pauses.resume(account.id, check.id);
    await deps.audit(req, {
      action: 'resume',
      checkId: check.id,
      details: {
        wasPaused: resumed,
        ...(was ? { pausedBy: was.by, pausedSince: new Date(was.since).toISOString() } : {}),
      },
    });
    return answer(account, check);
  });

  function checkOf(account: AccountConfig, req: FastifyRequest): CheckConfig {
    const { checkId } = parseOr400(CheckIdParams, req.params, 'path');
    const check = accounts.check(account, checkId);
    if (!check) throw new HttpError(404, `no check "${checkId}" in this account`);
    return check;
  }

  /**
   * The check's status now; a note when the config's `enabled: false` or a maintenance
   * window in pause mode holds it, which a resume does not undo.
   */
  async function answer(account: AccountConfig, check: CheckConfig) {
    const status = await deps.engine.statusOf(account, check);
    const held = deps.maintenance?.pauseOver(account, check);
    if (held) {
      const until = new Date(held.occurrence.endsAt).toISOString();
      const note = `maintenance window "${held.window.name}" (${held.window.id}) pauses this check until ${until}: a resume lifts only a person's pause; the check runs again when the window ends`;
      return { data: status, meta: { note, maintenancePauseEndsAt: until } };
    }
    if (check.enabled) return { data: status };
    const note =
      'the config disables this check (enabled: false): a pause or resume here does not change that; it runs once the config enables it and it is not paused';
    return { data: status, meta: { note } };
  }

  async function runsOf(account: AccountConfig, ids: string[]): Promise<CheckRun[]> {
    const found = (await deps.storage.findRuns(ids)).filter((r) => r.accountId === account.id);
    const missing = ids.filter((id) => !found.some((r) => r.id === id));
    if (missing.length > 0)
      throw new HttpError(
        404,
        `no run ${missing.map((id) => `"${id}"`).join(', ')} in this account (runs are kept 24 hours after they finish)`,
      );
    const now = clock.now();
    const byId = new Map(found.map((r) => [r.id, r]));
    return ids.map((id) => toWire(byId.get(id)!, now, false));
  }

  /**
   * The checks the body selects (a union of its selectors), and those of groups or
   * tags left out (they cannot run, or are paused). A check named by id that cannot
   * run is a 409; unknown ids are a 400 naming them.
   */
  function select(account: AccountConfig, body: z.output<typeof CheckRunsCreateSchema>) {
    const unknown: string[] = [];
    // Each unknown value in `details` too, at its place in the body, as every 400 names its fields.
    const details: Array<{ path: string; message: string }> = [];
    const name = (what: string, given: string[] | undefined, known: (value: string) => boolean) => {
      const missing = (given ?? []).flatMap((value, i) => (known(value) ? [] : [{ value, i }]));
      if (missing.length === 0) return;
      unknown.push(`${what} ${missing.map(({ value }) => `"${value}"`).join(', ')}`);
      for (const { value, i } of missing)
        details.push({ path: `${what}[${i}]`, message: `"${value}" is not in this account` });
    };
    name('checkIds', body.checkIds, (id) => accounts.check(account, id) !== undefined);
    name('groupIds', body.groupIds, (id) => account.groups.some((g) => g.id === id));
    name('tags', body.tags, (tag) => account.checks.some((c) => c.tags.includes(tag)));
    name('locations', body.locations, (id) => account.locations.some((l) => l.id === id));
    if (unknown.length > 0)
      throw new HttpError(400, `unknown ${unknown.join('; ')} in this account`, details);

    const named = new Set(body.checkIds ?? []);
    const groups = new Set(body.groupIds ?? []);
    const tags = new Set(body.tags ?? []);
    const chosen = account.checks.filter(
      (c) =>
        named.has(c.id) || (c.group !== undefined && groups.has(c.group)) || c.tags.some((t) => tags.has(t)),
    );
    const checks: CheckConfig[] = [];
    const leftOut: Array<{ checkId: string; reason: string }> = [];
    for (const check of chosen) {
      const why = whyNot(account, check);
      if (why === undefined) checks.push(check);
      else if (named.has(check.id)) throw new HttpError(409, `check "${check.id}" ${why}`);
      else leftOut.push({ checkId: check.id, reason: why });
    }
    return { checks, leftOut };
  }

  function whyNot(account: AccountConfig, check: CheckConfig): string | undefined {
    const held = deps.maintenance?.pauseOver(account, check);
    if (held)
      return `is paused by maintenance window "${held.window.name}" (${held.window.id}) until ${new Date(held.occurrence.endsAt).toISOString()}`;
    const pause = deps.pauses.of(account.id, check.id);
    if (pause)
      return `is paused by ${pause.by} since ${new Date(pause.since).toISOString()}, until someone resumes it (POST /v1/checks/${check.id}/resume)`;
    if (!check.enabled) return 'is disabled in the config';
    if (check.type === 'heartbeat') return 'is a heartbeat check: its pings judge it, it does not run';
    if (!isRunnable(check)) return 'cannot run in this service';
    return undefined;
  }
}

/** Each check at each of its locations (only those of `only`, when given). */
function placesOf(account: AccountConfig, checks: CheckConfig[], only: string[] | undefined): Pick1[] {
  const wanted = only && new Set(only);
  return checks.flatMap((check) =>
    account.locations
      .filter((l) => check.locations.includes(l.id) && (!wanted || wanted.has(l.id)))
      .map((location) => ({ account, check, location })),
  );
}

/** A stored run as the wire says it; a run just asked for is `queued` until its first read. */
function toWire(run: StoredRun, now: number, created: boolean): CheckRun {
  const state: CheckRun['state'] =
    run.skipped !== null
      ? 'skipped'
      : run.completedAt !== null
        ? 'done'
        : !created && run.token !== null && (run.leaseUntil ?? 0) > now
          ? 'running'
          : 'queued';
  const wire: CheckRun = {
    runId: run.id,
    checkId: run.checkId,
    location: run.locationId,
    state,
    triggeredBy: run.triggeredBy,
    queuedAt: new Date(run.dueAt).toISOString(),
  };
  if (state === 'done') {
    wire.resultId = run.id;
    wire.status = run.ok ? 'success' : 'failed';
  }
  if (state === 'skipped') wire.reason = run.skipped!;
  return wire;
}

/** Asks per check in the last minute: past ASKS_PER_CHECK_PER_MINUTE, 429 with when to retry. */
function createAskLimit(now: () => number) {
  const asks = new Map<string, number[]>();
  const recent = (key: string, at: number) => {
    const list = (asks.get(key) ?? []).filter((t) => t > at - MINUTE_MS);
    if (list.length === 0) asks.delete(key);
    else asks.set(key, list);
    return list;
  };
  return {
    check(keys: string[]) {
      const at = now();
      for (const key of keys) {
        const list = recent(key, at);
        if (list.length >= ASKS_PER_CHECK_PER_MINUTE) {
          const wait = Math.max(1, Math.ceil((list[0]! + MINUTE_MS - at) / 1000));
          const checkId = key.split('\u0000')[1];
          throw new HttpError(
            429,
            `check "${checkId}" was asked to run ${list.length} times in the last minute (at most ${ASKS_PER_CHECK_PER_MINUTE}); retry in ${wait} s`,
            [],
            { 'retry-after': String(wait) },
          );
        }
      }
    },
    note(keys: string[]) {
      const at = now();
      for (const key of keys) asks.set(key, [...recent(key, at), at]);
    },
  };
}
