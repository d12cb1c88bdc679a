// What a key may ask about itself and its account's actions: `GET /v1/me` (who
// the key is, so a console knows what to offer) and `GET /v1/audit-events`.
import type { FastifyInstance } from 'fastify';
import {
  AuditEventsQuerySchema,
  type AuditEvent,
  type AuditEventList,
  type Me,
} from '../../api/schemas/actions.js';
import type { AuditRow, Storage } from '../storage/types.js';
import { renderPage, sendPage } from './etag.js';
import { parseOr400 } from './errors.js';
import { accountOf, keyOf } from './guard.js';
import { offsetOf, pageMeta } from './paging.js';
import { endOf } from './time-range.js';

export function registerKeyRoutes(app: FastifyInstance, deps: { storage: Storage }): void {
  app.get('/v1/me', (req): Me => {
    const key = keyOf(req);
    return { accountId: accountOf(req).id, keyName: key.name, role: key.role };
  });

  app.get('/v1/audit-events', async (req, reply) => {
    const account = accountOf(req);
    const q = parseOr400(AuditEventsQuerySchema, req.query, 'query');
    const { items, total } = await deps.storage.auditEvents(account.id, {
      checkId: q.checkId,
      action: q.action,
      from: q.from === undefined ? undefined : Date.parse(q.from),
      to: q.to === undefined ? undefined : endOf(q.to),
      offset: offsetOf(q),
      limit: q.limit,
    });
    const body: AuditEventList = { data: items.map(toAuditEvent), meta: pageMeta(q.page, q.limit, total) };
    return sendPage(req, reply, renderPage(body));
  });
}

function toAuditEvent(row: AuditRow): AuditEvent {
  const event: AuditEvent = {
    id: row.id,
    at: new Date(row.at).toISOString(),
    keyName: row.keyName,
    action: row.action,
    details: row.details,
  };
  if (row.checkId !== undefined) event.checkId = row.checkId;
  if (row.targetId !== undefined) event.targetId = row.targetId;
  return event;
}
