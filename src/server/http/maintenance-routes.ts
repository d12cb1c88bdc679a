// Maintenance windows over the API (docs/maintenance.md): create, list,
// read, change (extend, end now, rename) and cancel or end. Who may is the guard's
// (route-roles.ts); every write is an audit event. Windows from the config are
// read here and refused to writes (409 naming the config file).
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  MaintenanceCreateSchema,
  MaintenanceListQuerySchema,
  MaintenancePatchSchema,
} from '../../api/schemas/maintenance.js';
import { PathParamSchema } from '../../api/schemas/index.js';
import type { Clock } from '../../domain/clock.js';
import { occurrenceAt } from '../../domain/maintenance.js';
import type { Accounts } from '../config/accounts.js';
import type { AccountConfig } from '../config/schema.js';
import { coveredChecks, emptyScopeReason } from '../maintenance/coverage.js';
import {
  Conflict,
  type CreateBody,
  patched,
  toWire,
  windowOf,
  WindowEnded,
  WindowProblem,
} from '../maintenance/rules.js';
import { covers, type KnownWindow, type Maintenance, type WindowSource } from '../maintenance/windows.js';
import type { StoredWindow } from '../storage/types.js';
import type { Audit } from './audit.js';
import { HttpError, parseOr400 } from './errors.js';
import { accountOf, keyOf, requireRole } from './guard.js';
import { pageMeta, slice } from './paging.js';

export interface MaintenanceRouteDeps {
  accounts: Accounts;
  maintenance: Maintenance;
  clock: Clock;
  audit: Audit;
}

const IdParams = z.object({ id: PathParamSchema });

export function registerMaintenanceRoutes(app: FastifyInstance, deps: MaintenanceRouteDeps): void {
  const { maintenance, clock, audit } = deps;
  const now = () => clock.now();

  app.post('/v1/maintenance-windows', async (req, reply) => {
    const account = accountOf(req);
    const body = parseOr400(MaintenanceCreateSchema, req.body ?? {}, 'body');
    refuseScope(deps.accounts, account, body);
    refuseOverCap(account, maintenance.all(account.id), now());
    const at = now();
    const window = problemsAre400(() =>
      windowOf(body, { accountId: account.id, id: randomUUID(), createdBy: keyOf(req).name, now: at }),
    );
    if (occurrenceAt(window, at).state === 'ended')
      throw new HttpError(400, 'invalid body: endsAt: the window would have ended already', [
        {
          path: body.endsAt !== undefined ? 'endsAt' : 'duration',
          message: 'the window would have ended already',
        },
      ]);
    await maintenance.save(window);
    const wire = wireOf(account, window, 'api');
    await audit(req, {
      action: 'maintenance.create',
      targetId: window.id,
      details: {
        name: window.name,
        reason: window.reason,
        scope: window.scope,
        mode: window.mode,
        startsAt: wire.startsAt,
        endsAt: wire.endsAt,
        ...(window.repeat ? { repeat: window.repeat } : {}),
      },
    });
    return reply.code(201).header('cache-control', 'no-store').send(wire);
  });

  app.get('/v1/maintenance-windows', (req, reply) => {
    const account = accountOf(req);
    const q = parseOr400(MaintenanceListQuerySchema, req.query, 'query');
    const at = now();
    const check = q.checkId !== undefined ? deps.accounts.check(account, q.checkId) : undefined;
    if (q.checkId !== undefined && !check)
      throw new HttpError(400, `invalid query: checkId: no check "${q.checkId}" in this account`, [
        { path: 'checkId', message: `no check "${q.checkId}" in this account` },
      ]);
    const chosen = maintenance
      .all(account.id)
      .map((k) => toWire(k.window, k.source, at, coveredChecks(account, k.window.scope)))
      .filter((w) => q.state === undefined || w.state === q.state)
      .filter((w) => {
        if (!check) return true;
        const k = maintenance.get(account.id, w.id);
        return k !== undefined && covers(k.window, account, check);
      })
      // Active first, then scheduled, then ended; each by its occurrence's start (newest ended first).
      .sort((a, b) => order(a) - order(b) || by(a, b));
    void reply.header('cache-control', 'no-store');
    return { data: slice(chosen, q.page, q.limit), meta: pageMeta(q.page, q.limit, chosen.length) };
  });

  app.get('/v1/maintenance-windows/:id', (req, reply) => {
    const known = windowOfReq(req);
    void reply.header('cache-control', 'no-store');
    return wireOf(accountOf(req), known.window, known.source);
  });

  app.patch('/v1/maintenance-windows/:id', async (req) => {
    const known = writable(windowOfReq(req));
    const body = parseOr400(MaintenancePatchSchema, req.body ?? {}, 'body');
    const at = now();
    let next;
    try {
      next = problemsAre400(() => patched(known.window, body, at));
    } catch (error) {
      if (error instanceof WindowEnded)
        throw new HttpError(409, error.message, undefined, undefined, {
          code: 'window_ended',
          endedAt: new Date(error.endedAt).toISOString(),
        });
      if (error instanceof Conflict) throw new HttpError(409, error.message);
      throw error;
    }
    await maintenance.save(next);
    const wire = wireOf(accountOf(req), next, 'api');
    await audit(req, {
      action: body.endsAt === 'now' ? 'maintenance.end' : 'maintenance.update',
      targetId: next.id,
      details: {
        name: next.name,
        ...(body.endsAt !== undefined
          ? { endsAt: body.endsAt === 'now' ? new Date(at).toISOString() : body.endsAt }
          : {}),
        ...(body.name !== undefined ? { renamedFrom: known.window.name } : {}),
        ...(body.reason !== undefined ? { reason: body.reason } : {}),
        occurrence: wire.occurrence,
      },
    });
    return wire;
  });

  app.delete('/v1/maintenance-windows/:id', async (req, reply) => {
    const account = accountOf(req);
    const known = writable(windowOfReq(req));
    const at = now();
    const { state } = occurrenceAt(known.window, at);
    const startedOnce = known.window.startsAt <= at;
    const erase = async (action: 'maintenance.cancel' | 'maintenance.delete') => {
      await maintenance.remove(account.id, known.window.id);
      await audit(req, { action, targetId: known.window.id, details: { name: known.window.name, state } });
      return reply.code(204).header('cache-control', 'no-store').send();
    };
    // Never began: nothing of it is history, so it goes.
    if (state === 'scheduled' && !startedOnce) return erase('maintenance.cancel');
    if (state === 'ended') {
      // History erased on purpose: an admin's decision, in the audit trail.
      requireRole(req, 'admin');
      return erase('maintenance.delete');
    }
    // Active, or a series that has begun: ended now, kept as history.
    const ended = { ...known.window, endedEarlyAt: at };
    await maintenance.save(ended);
    await audit(req, {
      action: state === 'active' ? 'maintenance.end' : 'maintenance.cancel',
      targetId: ended.id,
      details: { name: ended.name, state, endedAt: new Date(at).toISOString() },
    });
    return wireOf(account, ended, 'api');
  });

  const wireOf = (account: AccountConfig, window: StoredWindow, source: WindowSource) =>
    toWire(window, source, now(), coveredChecks(account, window.scope));

  function windowOfReq(req: FastifyRequest): KnownWindow {
    const account: AccountConfig = accountOf(req);
    const { id } = parseOr400(IdParams, req.params, 'path');
    const known = maintenance.get(account.id, id);
    if (!known) throw new HttpError(404, `no maintenance window "${id}" in this account`);
    return known;
  }
}

/** The create's scope: unknown check or group ids, or (unless allowEmpty) no check covered now, are a 400. */
function refuseScope(accounts: Accounts, account: AccountConfig, body: CreateBody): void {
  const unknown: string[] = [];
  const missingChecks = (body.scope.checks ?? []).filter((id) => !accounts.check(account, id));
  const missingGroups = (body.scope.groups ?? []).filter((id) => !account.groups.some((g) => g.id === id));
  const details = [
    ...missingChecks.map((id) => ({
      path: `scope.checks[${body.scope.checks!.indexOf(id)}]`,
      message: `no check "${id}" in this account`,
    })),
    ...missingGroups.map((id) => ({
      path: `scope.groups[${body.scope.groups!.indexOf(id)}]`,
      message: `no group "${id}" in this account`,
    })),
  ];
  if (missingChecks.length) unknown.push(`checks ${missingChecks.map((id) => `"${id}"`).join(', ')}`);
  if (missingGroups.length) unknown.push(`groups ${missingGroups.map((id) => `"${id}"`).join(', ')}`);
  if (unknown.length > 0)
    throw new HttpError(400, `invalid body: unknown ${unknown.join('; ')} in this account (scope)`, details);
  const empty = body.allowEmpty ? undefined : emptyScopeReason(account, body.scope);
  if (empty !== undefined)
    throw new HttpError(400, `invalid body: scope: ${empty} (allowEmpty: true makes it anyway)`, [
      { path: 'scope', message: empty },
    ]);
}

/** Past the account's maxMaintenanceWindows active or scheduled windows (the config's too): 409. */
function refuseOverCap(account: AccountConfig, known: readonly KnownWindow[], now: number): void {
  const max = account.maxMaintenanceWindows;
  const open = known.filter((k) => occurrenceAt(k.window, now).state !== 'ended').length;
  if (open >= max) throw new HttpError(409, `too many maintenance windows (${max}): end or delete some`);
}

function writable(known: KnownWindow): KnownWindow {
  if (known.source === 'config')
    throw new HttpError(
      409,
      `maintenance window "${known.window.id}" comes from the service's config file (accounts[].maintenanceWindows): change it there and reload`,
    );
  return known;
}

function problemsAre400<T>(make: () => T): T {
  try {
    return make();
  } catch (error) {
    if (error instanceof WindowProblem)
      throw new HttpError(400, `invalid body: ${error.problem.path}: ${error.problem.message}`, [
        { ...error.problem },
      ]);
    throw error;
  }
}

const STATE_ORDER = { active: 0, scheduled: 1, ended: 2 } as const;
const order = (w: { state: keyof typeof STATE_ORDER }) => STATE_ORDER[w.state];
const by = (
  a: { state: string; startsAt: string; occurrence: { startsAt: string } | null },
  b: { state: string; startsAt: string; occurrence: { startsAt: string } | null },
) => {
  const x = a.occurrence?.startsAt ?? a.startsAt;
  const y = b.occurrence?.startsAt ?? b.startsAt;
  return a.state === 'ended' ? y.localeCompare(x) : x.localeCompare(y);
};
