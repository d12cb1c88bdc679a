// One event of a check becomes a notification per subscribed channel: the payload
// frozen for each, and whether it is sent or held (and why).
import { randomUUID } from 'node:crypto';
import type { AlertEvent, CheckResult, CheckStatus } from '../../api/schemas/index.js';
import { withinMinInterval } from '../../domain/alert-policy.js';
import type { AccountConfig, CheckConfig } from '../config/schema.js';
import type { AlertRow, NewNotification, Storage, StoredChannel } from '../storage/types.js';
import { hearsEvent } from './audience.js';
import { dependencyReason, type ParentHold } from './dependency-hold.js';
import { buildPayload, type StoredPayload } from './payload.js';

export interface PlannerDeps {
  storage: Storage;
  now: () => number;
  publicUrl: string | undefined;
  /** The active maintenance window over the check (docs/maintenance.md); undefined when none. */
  maintenanceOf?:
    ((account: AccountConfig, check: CheckConfig) => { id: string; name: string } | undefined) | undefined;
  /** The failing parents holding the check's pages at a location (dependency-hold.ts); absent: none do. */
  dependencyHolds?:
    ((account: AccountConfig, check: CheckConfig, location: string) => Promise<ParentHold[]>) | undefined;
}

/**
 * Events a maintenance window holds: every one that would page. A recovery, a channel's
 * test and an acknowledgement go through; an event added later pages, so it is held too.
 */
const passesMaintenance = (event: AlertEvent) =>
  event === 'recovery' || event === 'test' || event === 'acknowledgement';

export interface NotifyContext {
  status: CheckStatus;
  result: CheckResult | null;
  alert: AlertRow | null | undefined;
  incidentId: string | null;
  now: number;
  reminder?: number;
  acknowledgedBy?: string;
  maintenance?: { id: string; name: string; failingSince: string };
  certificate?: StoredPayload['certificate'];
}

/**
 * The notification of each subscribed channel that hears the event (audience.ts), pending or
 * suppressed with the reason (a maintenance window, a channel's minimum interval, a
 * failure notice of the alert suppressed there).
 */
export function createNotifier(deps: PlannerDeps) {
  const { storage } = deps;
  return async function notify(
    account: AccountConfig,
    check: CheckConfig,
    event: AlertEvent,
    ctx: NotifyContext,
  ): Promise<NewNotification[]> {
    const subscribed = await storage.subscribedChannels(account.id, check.id, check.group);
    const channels = await notYetPaged(
      storage,
      event,
      ctx,
      subscribed.filter((c) => hearsEvent(c, event)),
    );
    // A channel whose failure notice of this alert was suppressed hears nothing more of it,
    // unless a later one went (the page at a maintenance window's end).
    const notices = ctx.alert && event !== 'failure' ? await storage.alertNotices(ctx.alert.id) : [];
    const failures = notices.filter((n) => n.event === 'failure');
    const quiet = new Set(
      failures
        .filter((n) => n.status === 'suppressed')
        .map((n) => n.channelId)
        .filter((id) => !failures.some((n) => n.channelId === id && n.status !== 'suppressed')),
    );
    const window = passesMaintenance(event) ? undefined : deps.maintenanceOf?.(account, check);
    const parents = await dependencyHolds(deps, account, check, event, window ? undefined : ctx);
    const reasons = await Promise.all(
      channels.map((channel) =>
        window
          ? Promise.resolve(`maintenance: ${window.name}`)
          : (dependencyReason(parents, channel.id) ??
            suppression(storage, account, check, event, channel, quiet, ctx.now)),
      ),
    );
    return channels.map((channel, i) => {
      const why = reasons[i];
      const payload = buildPayload({
        event,
        check,
        account,
        status: ctx.status,
        result: ctx.result,
        alertId: ctx.alert?.id ?? null,
        incidentId: ctx.incidentId,
        occurredAt: ctx.now,
        publicUrl: deps.publicUrl,
        channel: { id: channel.id, name: channel.name },
        ...(ctx.reminder === undefined ? {} : { reminder: ctx.reminder }),
        ...(ctx.acknowledgedBy === undefined ? {} : { acknowledgedBy: ctx.acknowledgedBy }),
        ...(ctx.maintenance === undefined ? {} : { maintenance: ctx.maintenance }),
        ...(ctx.certificate === undefined ? {} : { certificate: ctx.certificate }),
      });
      return {
        id: randomUUID(),
        channelId: channel.id,
        checkId: check.id,
        alertId: ctx.alert?.id ?? null,
        event,
        status: why ? 'suppressed' : 'pending',
        payload,
        lastError: why ?? null,
      };
    });
  };
}

/**
 * The failing parents holding a failure page: the opening of an alert at its run's location,
 * or a hold's end page at each location where the check fails (another parent may still hold
 * it). A recovery of a held alert is `quiet` instead; under a window (no ctx) none apply.
 */
async function dependencyHolds(
  deps: PlannerDeps,
  account: AccountConfig,
  check: CheckConfig,
  event: AlertEvent,
  ctx: NotifyContext | undefined,
): Promise<ParentHold[]> {
  if (event !== 'failure' || !ctx || !deps.dependencyHolds) return [];
  const at = ctx.result
    ? [ctx.result.location.id]
    : ctx.status.locations.filter((l) => l.status === 'failing').map((l) => l.id);
  const holds = await Promise.all(at.map((location) => deps.dependencyHolds!(account, check, location)));
  return holds.flat();
}

/** Why a channel hears nothing of this event, or undefined when it does. */
async function suppression(
  storage: Storage,
  account: AccountConfig,
  check: CheckConfig,
  event: AlertEvent,
  channel: StoredChannel,
  quiet: ReadonlySet<number>,
  now: number,
): Promise<string | undefined> {
  if (quiet.has(channel.id)) return 'suppressed: the failure notice of this alert was suppressed here';
  if (event !== 'failure' && event !== 'degraded') return undefined;
  const previous = await storage.lastNoticeAt(account.id, check.id, channel.id, event);
  if (!withinMinInterval(previous, now, check.alerts)) return undefined;
  const ago = Math.round((now - previous!) / 1000);
  return `suppressed: a ${event} notice went to this channel ${ago} s ago (minIntervalSeconds ${check.alerts.minIntervalSeconds})`;
}

/**
 * The page at the end of a failing parent's or a location's hold (no result, no window)
 * goes only to the channels that have not had this alert's failure page: it is the one
 * they missed, never a second.
 */
async function notYetPaged(
  storage: Storage,
  event: AlertEvent,
  ctx: NotifyContext,
  channels: StoredChannel[],
): Promise<StoredChannel[]> {
  if (event !== 'failure' || ctx.result !== null || ctx.maintenance || !ctx.alert) return channels;
  const paged = new Set(
    (await storage.alertNotices(ctx.alert.id))
      .filter((n) => n.event === 'failure' && n.status !== 'suppressed')
      .map((n) => n.channelId),
  );
  return channels.filter((c) => !paged.has(c.id));
}
