// Alert channels (list, create, subscriptions, test), the delivery log and
// acknowledgement of alerts. DECISIONs in docs/alerts.md.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  AlertChannelCreateBodySchema,
  AlertChannelsQuerySchema,
  AlertNotificationsQuerySchema,
  ChannelGroupingBodySchema,
  PathParamSchema,
  SubscriptionsSchema,
  type AlertChannel,
  type AlertNotification,
  type ChannelGrouping,
  type CheckAlert,
  type Subscriptions,
} from '../../api/schemas/index.js';
import type { Alerting } from '../alerting/index.js';
import { newSigningSecret } from '../alerting/signing-secret.js';
import type { AccountConfig } from '../config/schema.js';
import { channelTemplateProblems } from '../config/channel-checks.js';
import { unknownSubscriptions } from '../config/subscription-check.js';
import type { AlertRow, NotificationRow, Storage, StoredChannel } from '../storage/types.js';
import type { StatusEngine } from '../status/engine.js';
import type { Accounts } from '../config/accounts.js';
import { groupWindowOf } from '../../domain/group-window.js';
import { maskConfig } from '../../domain/mask.js';
import type { Audit } from './audit.js';
import { renderPage, sendPage } from './etag.js';
import { keyOf } from './guard.js';
import { HttpError, parseOr400, refuseBody } from './errors.js';
import { offsetOf, pageMeta } from './paging.js';
import { endOf } from './time-range.js';

export interface AlertRouteDeps {
  accounts: Accounts;
  storage: Storage;
  engine: StatusEngine;
  alerting: Alerting;
  now: () => number;
  auth: (req: FastifyRequest) => AccountConfig;
  audit: Audit;
}

const ChannelParams = z.object({
  id: z
    .string()
    .regex(/^\d{1,15}$/, 'must be a channel id (a whole number)')
    .transform(Number),
});
const AlertParams = z.object({ alertId: PathParamSchema });
const DAY_MS = 86_400_000;

export function registerAlertRoutes(app: FastifyInstance, deps: AlertRouteDeps): void {
  const { storage, now, auth, audit } = deps;
  const channelOf = async (account: AccountConfig, req: FastifyRequest) => {
    const { id } = parseOr400(ChannelParams, req.params, 'path');
    const channel = await storage.channel(account.id, id);
    if (!channel) throw new HttpError(404, `no alert channel ${id} in this account`);
    return channel;
  };

  app.get('/v1/alert-channels', async (req, reply) => {
    const account = auth(req);
    const q = parseOr400(AlertChannelsQuerySchema, req.query, 'query');
    const { items, total } = await storage.listChannels(account.id, offsetOf(q), q.limit);
    const stats = await storage.deliveryStats(
      account.id,
      items.map((c) => c.id),
      now() - DAY_MS,
    );
    // A read key sees where channels deliver, not the secrets in their URLs, headers and parameters.
    const masked = keyOf(req).role === 'read';
    const data = items.map((c): AlertChannel => {
      const s = stats.get(c.id);
      const last = s?.last ?? null;
      return {
        ...c,
        ...(masked ? { config: maskConfig(c.type, c.config, false) } : {}),
        lastDelivery: last && { ...last, at: new Date(last.at).toISOString() },
        failures24h: s?.failures ?? 0,
      };
    });
    return sendPage(
      req,
      reply,
      renderPage({ data, meta: { ...pageMeta(q.page, q.limit, total), ...(masked ? { masked } : {}) } }),
    );
  });

  app.post('/v1/alert-channels', async (req, reply) => {
    const account = auth(req);
    const body = parseOr400(AlertChannelCreateBodySchema, req.body ?? {}, 'alert channel');
    if (body.subscriptions) checkSubscriptions(account, body.subscriptions);
    const template = channelTemplateProblems(body).map(([path, message]) => ({
      path: path.join('.'),
      message,
    }));
    if (template.length > 0) {
      const said = template.map((d) => `${d.path}: ${d.message}`).join('; ');
      throw new HttpError(400, `invalid alert channel: ${said}`, template);
    }
    const signingSecret = body.type === 'WEBHOOK' ? newSigningSecret() : undefined;
    const outcome = await storage.createChannel(
      account.id,
      { ...body, signingSecret },
      account.maxAlertChannels,
      now(),
    );
    if (!outcome.ok) {
      throw new HttpError(402, `the plan allows ${outcome.limit} alert channels and all are in use`);
    }
    await audit(req, {
      action: 'channel.create',
      targetId: String(outcome.channel.id),
      details: { type: outcome.channel.type, name: outcome.channel.name },
    });
    // The one time the secret is shown whole.
    const channel = outcome.signingSecret
      ? { ...outcome.channel, signingSecret: outcome.signingSecret }
      : outcome.channel;
    // The secret is in this answer only: no cache, shared or the client's own, keeps it.
    return reply.code(201).header('cache-control', 'no-store').send(channel);
  });

  app.get('/v1/alert-channels/:id/subscriptions', async (req) => {
    const account = auth(req);
    const channel = await channelOf(account, req);
    return storage.subscriptions(account.id, channel.id);
  });

  app.put('/v1/alert-channels/:id/subscriptions', async (req) => {
    const account = auth(req);
    const channel = await channelOf(account, req);
    const subscriptions = subscriptionsBody(account, req.body);
    await storage.setSubscriptions(account.id, channel.id, subscriptions);
    await audit(req, {
      action: 'channel.subscriptions',
      targetId: String(channel.id),
      details: subscriptions,
    });
    return storage.subscriptions(account.id, channel.id);
  });

  // DECISION (docs/alerts.md, "Grouping per channel"): the window changes without making the channel again.
  app.get('/v1/alert-channels/:id/grouping', async (req) => groupingOf(await channelOf(auth(req), req)));

  app.put('/v1/alert-channels/:id/grouping', async (req) => {
    const account = auth(req);
    const channel = await channelOf(account, req);
    const { groupWindowSeconds } = parseOr400(ChannelGroupingBodySchema, req.body ?? {}, 'grouping');
    // Gone between the read and the write (another request): as if it had never been there.
    if (!(await storage.setGroupWindow(account.id, channel.id, groupWindowSeconds, now())))
      throw new HttpError(404, `no alert channel ${channel.id} in this account`);
    await audit(req, {
      action: 'channel.grouping',
      targetId: String(channel.id),
      details: { groupWindowSeconds },
    });
    return groupingOf({ ...channel, groupWindowSeconds });
  });

  app.post('/v1/alert-channels/:id/test', async (req) => {
    const account = auth(req);
    const channel = await channelOf(account, req);
    refuseBody(req.body);
    const { row, exchange } = await deps.alerting.testChannel(channel);
    if (!row) throw new HttpError(500, 'the test notification was not recorded');
    await audit(req, {
      action: 'channel.test',
      targetId: String(channel.id),
      details: { notificationId: row.id, status: row.status },
    });
    // DECISION (docs/alerts.md): a test shows what was sent and what answered, secrets masked.
    return { ...toNotification(row), sentBody: exchange?.sent ?? null, answer: exchange?.answer ?? null };
  });

  app.get('/v1/alert-notifications', async (req) => {
    const account = auth(req);
    const q = parseOr400(AlertNotificationsQuerySchema, req.query, 'query');
    const to = q.to ? endOf(q.to) : now();
    const from = q.from ? Date.parse(q.from) : 0;
    const { items, total } = await storage.listNotifications({
      accountId: account.id,
      checkId: q.checkId,
      channelId: q.channelId,
      status: q.status,
      from,
      to,
      offset: offsetOf(q),
      limit: q.limit,
    });
    return { data: items.map(toNotification), meta: pageMeta(q.page, q.limit, total) };
  });

  app.post('/v1/check-alerts/:alertId/acknowledge', async (req) => {
    const account = auth(req);
    const { alertId } = parseOr400(AlertParams, req.params, 'path');
    refuseBody(req.body);
    const at = now();
    const alert = await storage.acknowledgeAlert(account.id, alertId, at);
    if (!alert) throw new HttpError(404, `no alert "${alertId}" in this account`);
    await audit(req, {
      action: 'acknowledge',
      checkId: alert.checkId,
      targetId: alert.id,
      // A second acknowledgement keeps the first's time: say which this was.
      details: { alreadyAcknowledged: alert.acknowledgedAt !== null && alert.acknowledgedAt !== at },
    });
    const check = deps.accounts.check(account, alert.checkId);
    // The first acknowledgement of an open alert tells the tools that track it (docs/alerts.md).
    const first = alert.acknowledgedAt === at && alert.resolvedAt === null;
    if (check && first) await deps.alerting.acknowledged(account, check, alert, keyOf(req).name);
    // Answered once the status shows it: the next list read sees the acknowledgement.
    if (check) await deps.engine.rereadCheck(account, check);
    return toCheckAlert(alert);
  });
}

function checkSubscriptions(account: AccountConfig, subs: Subscriptions) {
  const unknown = unknownSubscriptions(account, subs);
  if (unknown.length > 0)
    throw new HttpError(
      400,
      `unknown in this account: ${unknown.map((u) => u.label).join(', ')}`,
      unknown.map((u) => ({ path: `${u.key}[${u.index}]`, message: u.message })),
    );
}

/** A PUT's subscriptions, known in the account, each once. */
function subscriptionsBody(account: AccountConfig, body: unknown): Subscriptions {
  // No body is a slip (curl -X PUT without -d), not the empty set it would read as: the set stays.
  if (body === undefined) {
    const message = 'send the body: { "checks": […], "groups": […], "locations": […] }, [] for none';
    throw new HttpError(400, `invalid subscriptions: (body): ${message}`, [{ path: '', message }]);
  }
  const subs = parseOr400(SubscriptionsSchema, body, 'subscriptions');
  checkSubscriptions(account, subs);
  return dedupe(subs);
}

const dedupe = (s: Subscriptions): Subscriptions => ({
  checks: [...new Set(s.checks)],
  groups: [...new Set(s.groups)],
  locations: [...new Set(s.locations)],
});

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function toNotification(row: NotificationRow): AlertNotification {
  const check = row.payload['check'] as { id: string; name: string } | null;
  return {
    id: row.id,
    event: row.event,
    status: row.status,
    channel: { id: row.channelId, name: row.channelName, type: row.channelType },
    check: check ? { id: check.id, name: check.name } : null,
    alertId: row.alertId,
    attempts: row.attempts,
    lastError: row.lastError,
    createdAt: new Date(row.createdAt).toISOString(),
    sentAt: iso(row.sentAt),
    nextAttemptAt: row.status === 'pending' ? iso(row.nextAttemptAt) : null,
  };
}

function toCheckAlert(a: AlertRow): CheckAlert {
  return {
    id: a.id,
    checkId: a.checkId,
    openedAt: new Date(a.openedAt).toISOString(),
    resolvedAt: iso(a.resolvedAt),
    acknowledgedAt: iso(a.acknowledgedAt),
    remindersSent: a.remindersSent,
  };
}

/** What a channel's grouping window was set to (null: none) and the window that applies. */
const groupingOf = (channel: StoredChannel): ChannelGrouping => ({
  groupWindowSeconds: channel.groupWindowSeconds ?? null,
  effectiveSeconds: groupWindowOf(channel),
});
