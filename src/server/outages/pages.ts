// The pages of a location outage (docs/alerts.md, "A broken location"): one `location`
// notice to every channel that would have had a page it holds (the channels of its checks
// that hear a failure) and to those subscribed to the location; its `location-recovery`
// to the channels its page went to. A maintenance window over every failing check there
// holds the page, as it holds theirs.
import { randomUUID } from 'node:crypto';
import type { AlertEvent } from '../../api/schemas/index.js';
import { hearsEvent } from '../alerting/audience.js';
import { locationPayload } from '../alerting/location-payload.js';
import type { AccountConfig, CheckConfig, LocationConfig } from '../config/schema.js';
import type { NewNotification, OutageRow, Storage, StoredChannel } from '../storage/types.js';

export interface OutagePageDeps {
  storage: Pick<Storage, 'listChannels'>;
  publicUrl: string | undefined;
  maintenanceOf?: ((account: AccountConfig, check: CheckConfig) => { name: string } | undefined) | undefined;
}

/** More than any account's channels (maxAlertChannels is 10 by default). */
const MAX_CHANNELS = 10_000;

export function createOutagePages(deps: OutagePageDeps) {
  /**
   * The channels a location's page goes to, in id order: read once, with their subscriptions,
   * and matched here (a location may have thousands of checks; a query each was seconds).
   */
  async function channelsOf(
    account: AccountConfig,
    location: LocationConfig,
    checks: readonly CheckConfig[],
  ) {
    const ids = new Set(checks.map((c) => c.id));
    const groups = new Set(checks.flatMap((c) => (c.group ? [c.group] : [])));
    const { items } = await deps.storage.listChannels(account.id, 0, MAX_CHANNELS);
    return items.filter((c) => {
      const subs = c.subscriptions;
      if (subs?.locations?.includes(location.id)) return true;
      const covers = subs?.checks.some((id) => ids.has(id)) || subs?.groups.some((g) => groups.has(g));
      return covers === true && hearsEvent(c, 'failure');
    });
  }

  function notice(
    account: AccountConfig,
    location: LocationConfig,
    outage: OutageRow,
    event: AlertEvent,
    channel: Pick<StoredChannel, 'id' | 'name'>,
    now: number,
    heldBy: string | undefined,
  ): NewNotification {
    const payload = locationPayload({
      account,
      location,
      outage,
      event,
      channel,
      now,
      publicUrl: deps.publicUrl,
    });
    return {
      id: randomUUID(),
      channelId: channel.id,
      checkId: null,
      alertId: null,
      event,
      status: heldBy ? 'suppressed' : 'pending',
      payload,
      lastError: heldBy ? `suppressed: ${heldBy}` : null,
    };
  }

  return {
    /** The `location` notices of a new outage; `failing` are the checks failing there now. */
    async declared(
      account: AccountConfig,
      location: LocationConfig,
      outage: OutageRow,
      here: readonly CheckConfig[],
      failing: readonly CheckConfig[],
      now: number,
    ): Promise<NewNotification[]> {
      const windows = failing.map((c) => deps.maintenanceOf?.(account, c));
      const held =
        failing.length > 0 && windows.every((w) => w !== undefined)
          ? `maintenance: ${windows[0]!.name}`
          : undefined;
      const channels = await channelsOf(account, location, here);
      return channels.map((c) => notice(account, location, outage, 'location', c, now, held));
    },
    /** The `location-recovery` notices: to the channels its page went to, and no other. */
    async ended(
      account: AccountConfig,
      location: LocationConfig,
      outage: OutageRow,
      here: readonly CheckConfig[],
      now: number,
    ): Promise<NewNotification[]> {
      const paged = new Set(outage.channels);
      const channels = (await channelsOf(account, location, here)).filter((c) => paged.has(c.id));
      return channels.map((c) => notice(account, location, outage, 'location-recovery', c, now, undefined));
    },
  };
}
