// Alertmanager forgets an alert at its endsAt, so while a Checkwall alert is open, a
// location outage stands, or a check's warning stands (alertmanager-warnings.ts), each
// Alertmanager channel that was told of it hears it again every repostSeconds
// (dialects/alertmanager.ts sets endsAt three of those ahead). Run by the reminder
// sweep. A re-post is a refresh, not a notification: sent directly, not logged; one
// that fails is followed by the next, and the end goes through the outbox.
import { randomUUID } from 'node:crypto';
import type { AlertPayload } from '../../api/schemas/index.js';
import type { Accounts } from '../config/accounts.js';
import type { OutageRow, Storage, StoredChannel } from '../storage/types.js';
import { DEFAULT_REPOST_SECONDS } from './dialects/alertmanager.js';
import type { CertificateWarnings } from './certificate-warnings.js';
import type { CheckStatuses } from './index.js';
import { createWarningReposts } from './alertmanager-warnings.js';
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
  /** Where each check's certificate warning stands, as the planner keeps it. */
  certificates: CertificateWarnings;
}

const isAlertmanager = (c: StoredChannel) => c.type === 'WEBHOOK' && c.config['format'] === 'alertmanager';
const repostMs = (c: StoredChannel) =>
  ((c.config['repostSeconds'] as number | undefined) ?? DEFAULT_REPOST_SECONDS) * 1000;

export function createAlertmanagerRefresh(deps: RefreshDeps) {
  /** When each (alert, channel) was last posted by this instance. */
  let posted = new Map<string, number>();
  const warnings = createWarningReposts(deps, (payload, channel) => send(payload, channel));

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
    // Each warning standing (degraded, certificate), read only when its post is due.
    for (const w of await warnings(channels)) await due(w.key, w.channel, w.post);
    for (const outage of await deps.storage.liveOutages()) {
      if (outage.endedAt !== null) continue;
      // Only where its page went (not held): its recovery goes to these too.
      const told = channels.filter((c) => c.accountId === outage.accountId && outage.channels.includes(c.id));
      for (const channel of told)
        await due(`outage\0${outage.id}\0${channel.id}`, channel, () => repostOutage(outage, channel));
    }
    posted = next;
  };

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
