// The audit trail's one way in for routes: `audit(req, event)` records what the
// request's key did, under the key's name (never the key) and the service's clock.
// Every acting route records through it (docs/roles.md, "Audit events").
import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { AuditAction } from '../../api/schemas/actions.js';
import type { Clock } from '../../domain/clock.js';
import type { Storage } from '../storage/types.js';
import { accountOf, keyOf } from './guard.js';

export interface AuditInput {
  action: AuditAction;
  checkId?: string | undefined;
  /** What was acted on besides a check: an alert's id, a channel's, a run's, a window's. */
  targetId?: string | undefined;
  /** Facts of the action; never a secret (a channel's config is not one of them). */
  details?: Record<string, unknown>;
}

export type Audit = (req: FastifyRequest, event: AuditInput) => Promise<void>;

export function createAudit(storage: Pick<Storage, 'recordAudit'>, clock: Pick<Clock, 'now'>): Audit {
  return (req, event) =>
    storage.recordAudit(accountOf(req).id, {
      id: randomUUID(),
      at: clock.now(),
      keyName: keyOf(req).name,
      action: event.action,
      checkId: event.checkId,
      targetId: event.targetId,
      details: event.details ?? {},
    });
}
