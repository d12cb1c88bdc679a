// The payload of a location outage's page (docs/alerts.md, "A broken location"): no check and
// no alert; the location, the outage's id (the provider's key), since when and its cause. Made
// by the outage's pages (outages/pages.ts) and by the Alertmanager refresh, which re-posts it
// while the outage stands.
import type { AlertEvent } from '../../api/schemas/index.js';
import { outageWords } from '../../domain/location-outage.js';
import type { AccountConfig, LocationConfig } from '../config/schema.js';
import type { OutageRow, StoredChannel } from '../storage/types.js';
import { buildPayload, type StoredPayload } from './payload.js';

/** "03:12 UTC": how the page says since when (a pager's line is short). */
const clockTime = (ms: number) => `${new Date(ms).toISOString().slice(11, 16)} UTC`;

export interface LocationPayloadInput {
  account: AccountConfig;
  location: LocationConfig;
  outage: OutageRow;
  event: AlertEvent;
  channel: Pick<StoredChannel, 'id' | 'name'>;
  now: number;
  publicUrl: string | undefined;
}

export function locationPayload(input: LocationPayloadInput): StoredPayload {
  const { account, location, outage, event, channel } = input;
  const base = buildPayload({
    ...{ event, check: null, account, status: null, result: null, alertId: null, incidentId: null },
    ...{ occurredAt: input.now, publicUrl: input.publicUrl, channel: { id: channel.id, name: channel.name } },
  });
  return {
    ...base,
    failingLocations: [{ id: location.id, name: location.name }],
    location: { id: location.id, name: location.name },
    outageId: outage.id,
    since: new Date(outage.since).toISOString(),
    failing: outage.failing,
    total: outage.total,
    cause: outageWords(location.name, outage, clockTime(outage.since), outage.noRunner),
  };
}
