// One event of a check becomes a notification per subscribed channel: the payload
// frozen for each, and whether it is sent or held (and why).
import { randomUUID } from 'node:crypto';
import type { AlertEvent, CheckResult, CheckStatus } from '../../api/schemas/index.js';
import { withinMinInterval } from '../../domain/alert-policy.js';
import type { AccountConfig, CheckConfig } from '../config/schema.js';
import type { AlertRow, NewNotification, Storage, StoredChannel } from '../storage/types.js';
import { FAILURE_HELD } from '../storage/rows.js';
import { hearsEvent, keepsAlertOpen } from './audience.js';
import { dependencyReason, type ParentHold } from './dependency-hold.js';
import { dependencyWaitKey, type createDependencyWaits } from './dependency-wait.js';
import { groupUntil } from './grouping.js';
import { buildPayload, type StoredPayload } from './payload.js';

/** What holds a page at a location: the outage there (outages/index.ts). */
export interface LocationHold {
  outageId: string;
  locationId: string;
  name: string;
  since: number;
}

type DependencyWaits = ReturnType<typeof createDependencyWaits>;

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
  /** The outage of a location holding pages there (outages/index.ts); absent: none does. */
  locationHold?: ((accountId: string, locationId: string) => LocationHold | undefined) | undefined;
  /**
   * docs/alerts.md, "No race": whether a page at a location waits for that location's
   * decision (outages/index.ts), how long at most and why; absent or undefined: it goes now.
   */
  holdWait?:
    ((account: AccountConfig, check: CheckConfig, locationId: string) => HoldWait | undefined) | undefined;
  /** The parent a dependent's failure page waits for (dependency-wait.ts); absent: it waits for none. */
  dependencyWait?: DependencyWaits['waitFor'] | undefined;
}

/** A page's wait for a hold's decision: on what (`location:<id>`), how long at most, and the note the log shows. */
export interface HoldWait {
  on: string;
  ms: number;
  note: string;
}

/**
 * Events a maintenance window holds: every one that would page. A recovery, a channel's
 * test, an acknowledgement and a warning's end go through; an event added later pages, so
 * it is held too.
 */
const passesMaintenance = (event: AlertEvent) =>
  event === 'recovery' ||
  event === 'test' ||
  event === 'acknowledgement' ||
  event === 'degraded-end' ||
  event === 'certificate-end';

/** The warning each end closes: it goes only where that warning stands (`warnedAt`). */
const WARNING_OF: Partial<Record<AlertEvent, 'degraded' | 'certificate'>> = {
  'degraded-end': 'degraded',
  'certificate-end': 'certificate',
};

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
  /** Only the channels whose tool keeps an alert open hear it (a recovery without `onRecovery`). */
  trackersOnly?: boolean;
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
    const hearing = subscribed.filter(
      (c) => hearsEvent(c, event) && (!ctx.trackersOnly || keepsAlertOpen(c)),
    );
    const warning = WARNING_OF[event];
    const channels = await notYetPaged(
      storage,
      event,
      ctx,
      warning ? await warnedAt(storage, account.id, check.id, hearing, warning) : hearing,
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
    // Maintenance first, then a broken location, then a failing parent (docs/alerts.md).
    const down = window ? undefined : locationHoldOf(deps, account, event, ctx);
    const parents = await dependencyHolds(deps, account, check, event, window || down ? undefined : ctx);
    const reasons = await Promise.all(
      channels.map((channel) =>
        window
          ? Promise.resolve(`maintenance: ${window.name}`)
          : down
            ? Promise.resolve(locationReason(down))
            : (dependencyReason(parents, channel.id) ??
              suppression(storage, account, check, event, channel, quiet, ctx.now)),
      ),
    );
    const waitOn = await waitOf(deps, account, check, event, ctx);
    return channels.map((channel, i) => {
      const why = reasons[i];
      const wait = waitOn?.(channel.id);
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
        lastError: why ?? (wait ? wait.note : null),
        ...(!why && wait ? { wait: { on: wait.on, until: ctx.now + wait.ms } } : {}),
        groupUntil: why ? null : groupUntil(channel, event, ctx.now),
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

/**
 * The outage holding a failure (or degraded) page: at its run's location, or, for a hold's
 * end page, the one at the first of the locations where the check fails when it fails at no other.
 */
function locationHoldOf(
  deps: PlannerDeps,
  account: AccountConfig,
  event: AlertEvent,
  ctx: NotifyContext,
): LocationHold | undefined {
  if (!pages(event) || !deps.locationHold) return undefined;
  if (ctx.result) return deps.locationHold(account.id, ctx.result.location.id);
  const at = ctx.status.locations.filter((l) => l.status === 'failing');
  const holds = at.map((l) => deps.locationHold!(account.id, l.id));
  return at.length > 0 && holds.every((h) => h !== undefined) ? holds[0] : undefined;
}

/**
 * What a page waits for, per channel (docs/alerts.md, "No race"): its location's decision when
 * an outage is possible there, else a parent that has not run since; undefined: nothing.
 */
async function waitOf(
  deps: PlannerDeps,
  account: AccountConfig,
  check: CheckConfig,
  event: AlertEvent,
  ctx: NotifyContext,
): Promise<((channel: number) => HoldWait) | undefined> {
  if (!pages(event) || !ctx.result) return undefined;
  const location = deps.holdWait?.(account, check, ctx.result.location.id);
  if (location) return () => location;
  const parent = event === 'failure' ? await deps.dependencyWait?.(account, check, ctx.result) : undefined;
  if (!parent) return undefined;
  const note = `waiting up to ${Math.round(parent.ms / 1000)} s: is ${parent.name} failing too? (docs/alerts.md, "No race")`;
  return (channel) => ({
    on: dependencyWaitKey(parent.parent, parent.location, channel, parent.since),
    ms: parent.ms,
    note,
  });
}

/** The events a broken location holds: those that page for a check's own failure. */
const pages = (event: AlertEvent) => event === 'failure' || event === 'degraded';

export const locationReason = (h: LocationHold) =>
  `suppressed: location ${h.name} is down since ${new Date(h.since).toISOString()} (outage ${h.outageId})`;

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
  if (quiet.has(channel.id)) return FAILURE_HELD;
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

/**
 * The channels a `warning` (`degraded`, `certificate`) of the check went to since the last
 * end of it there (`degraded-end`, `certificate-end`): where it stands.
 */
export async function warnedAt<C extends Pick<StoredChannel, 'id'>>(
  storage: Storage,
  accountId: string,
  checkId: string,
  channels: readonly C[],
  warning: 'degraded' | 'certificate',
): Promise<C[]> {
  const end = warning === 'degraded' ? 'degraded-end' : 'certificate-end';
  const open = await Promise.all(
    channels.map(async (c) => {
      const warned = await storage.lastNoticeAt(accountId, checkId, c.id, warning);
      if (warned === null) return false;
      const ended = await storage.lastNoticeAt(accountId, checkId, c.id, end);
      return ended === null || ended < warned;
    }),
  );
  return channels.filter((_, i) => open[i]);
}
