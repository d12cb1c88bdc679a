// Alertmanager forgets an alert at its endsAt, so while a Checkwall alert is open, a
// location outage stands, or a check whose degraded warning went out (`onDegraded`) is
// still degraded, each Alertmanager channel that was told of it hears it again every
// repostSeconds (dialects/alertmanager.ts sets endsAt three of those ahead). Run by
// the reminder sweep. A re-post is a refresh, not a notification: sent directly, not
// logged; one that fails is followed by the next, and the recovery goes through the outbox.
import { randomUUID } from 'node:crypto';
import type { AlertPayload } from '../../api/schemas/index.js';
import type { Accounts } from '../config/accounts.js';
import type { AccountConfig, CheckConfig } from '../config/schema.js';
import type { OutageRow, Storage, StoredChannel } from '../storage/types.js';
import { DEFAULT_REPOST_SECONDS } from './dialects/alertmanager.js';
import type { CheckStatuses } from './index.js';
import { locationPayload } from './location-payload.js';
import { buildPayload, type StoredPayload } from './payload.js';
import type { Sender } from './senders/types.js';

export interface RefreshDeps {
  storage: Storage;
  accounts: Accounts;
  engine: CheckStatuses;
  send: Sender;
  now: () => number;
  publicUrl: string | undefined;
  timeoutMs: number;
}

const isAlertmanager = (c: StoredChannel) => c.type === 'WEBHOOK' && c.config['format'] === 'alertmanager';
const repostMs = (c: StoredChannel) =>
  ((c.config['repostSeconds'] as number | undefined) ?? DEFAULT_REPOST_SECONDS) * 1000;

export function createAlertmanagerRefresh(deps: RefreshDeps) {
  /** When each (alert, channel) was last posted by this instance. */
  let posted = new Map<string, number>();

  return async function refresh(): Promise<void> {
    const channels = (await deps.storage.allChannels()).filter(isAlertmanager);
    if (channels.length === 0) return void (posted = new Map());
    const next = new Map<string, number>();
    /** Posts again what `key` names to `channel` when repostSeconds have passed. */
    const due = async (key: string, channel: StoredChannel, post: () => Promise<boolean>) => {
      const last = posted.get(key) ?? 0;
      next.set(key, last);
      if (deps.now() - last < repostMs(channel)) return;
      if (await post()) next.set(key, deps.now());
    };
    for (const alert of await deps.storage.openAlerts()) {
      const mine = channels.filter((c) => c.accountId === alert.accountId);
      if (mine.length === 0) continue;
      // Only where the failure went out: a page held (maintenance, minimum interval) stays held.
      const told = new Set(
        (await deps.storage.alertNotices(alert.id))
          .filter((n) => (n.event === 'failure' || n.event === 'reminder') && n.status === 'sent')
          .map((n) => n.channelId),
      );
      for (const channel of mine.filter((c) => told.has(c.id)))
        await due(`${alert.id}\0${channel.id}`, channel, () => repost(alert, channel));
    }
    // Whether the warning went to the channel is read only when a post is due, not every sweep.
    for (const { account, check, channel } of await degradedAt(channels))
      await due(`degraded\0${account.id}\0${check.id}\0${channel.id}`, channel, async () =>
        (await warningStands(account, check, channel)) ? repostDegraded(account, check, channel) : false,
      );
    for (const outage of await deps.storage.liveOutages()) {
      if (outage.endedAt !== null) continue;
      // Only where its page went (not held): its recovery goes to these too.
      const told = channels.filter((c) => c.accountId === outage.accountId && outage.channels.includes(c.id));
      for (const channel of told)
        await due(`outage\0${outage.id}\0${channel.id}`, channel, () => repostOutage(outage, channel));
    }
    posted = next;
  };

  /** Each check with `onDegraded` degraded now, with each Alertmanager channel of its account. */
  async function degradedAt(channels: StoredChannel[]) {
    const pairs: Array<{ account: AccountConfig; check: CheckConfig; channel: StoredChannel }> = [];
    for (const account of deps.accounts.all()) {
      const mine = channels.filter((c) => c.accountId === account.id);
      if (mine.length === 0) continue;
      for (const check of account.checks.filter((c) => c.alerts.onDegraded))
        if ((await deps.engine.statusOf(account, check)).status === 'degraded')
          pairs.push(...mine.map((channel) => ({ account, check, channel })));
    }
    return pairs;
  }

  /** Whether the check's last `degraded` to the channel came after its last `degraded-end` there. */
  async function warningStands(account: AccountConfig, check: CheckConfig, channel: StoredChannel) {
    const warned = await deps.storage.lastNoticeAt(account.id, check.id, channel.id, 'degraded');
    if (warned === null) return false;
    const ended = await deps.storage.lastNoticeAt(account.id, check.id, channel.id, 'degraded-end');
    return ended === null || ended < warned;
  }

  async function repostDegraded(account: AccountConfig, check: CheckConfig, channel: StoredChannel) {
    // Read in order with the check's results: a check a result has just moved is not posted again.
    const status = await deps.engine.perCheck(account, check, async () => {
      const now = await deps.engine.statusOf(account, check);
      return now.status === 'degraded' ? now : null;
    });
    if (!status) return false;
    const payload = buildPayload({
      event: 'degraded',
      check,
      account,
      status,
      result: null,
      alertId: null,
      incidentId: null,
      occurredAt: deps.now(),
      publicUrl: deps.publicUrl,
      channel: { id: channel.id, name: channel.name },
    });
    return send(payload, channel);
  }

  async function send(payload: StoredPayload, channel: StoredChannel): Promise<boolean> {
    const id = randomUUID();
    const outcome = await deps.send(
      { id, payload: { ...payload, deliveryId: id } as AlertPayload, channel },
      AbortSignal.timeout(deps.timeoutMs),
    );
    return outcome.ok;
  }

  async function repostOutage(outage: OutageRow, channel: StoredChannel): Promise<boolean> {
    const account = deps.accounts.byId(outage.accountId);
    const location = account?.locations.find((l) => l.id === outage.locationId);
    if (!account || !location) return false;
    // Read again just before: an outage that has just ended is not posted again.
    const still = (await deps.storage.liveOutages()).some((o) => o.id === outage.id && o.endedAt === null);
    if (!still) return false;
    const event = 'location';
    const now = deps.now();
    return send(
      locationPayload({ account, location, outage, event, channel, now, publicUrl: deps.publicUrl }),
      channel,
    );
  }

  async function repost(
    alert: { id: string; accountId: string; checkId: string; incidentId: string | null },
    channel: StoredChannel,
  ) {
    const account = deps.accounts.byId(alert.accountId);
    const check = account && deps.accounts.check(account, alert.checkId);
    if (!account || !check) return false;
    // Read in order with the check's results: an alert a result has just resolved is not posted again.
    const status = await deps.engine.perCheck(account, check, async () => {
      const still = await deps.storage.openAlert(account.id, check.id);
      return still?.id === alert.id ? deps.engine.statusOf(account, check) : null;
    });
    if (!status) return false;
    const payload = buildPayload({
      event: 'reminder',
      check,
      account,
      status,
      result: null,
      alertId: alert.id,
      incidentId: alert.incidentId,
      occurredAt: deps.now(),
      publicUrl: deps.publicUrl,
      channel: { id: channel.id, name: channel.name },
    });
    return send(payload, channel);
  }
}
