// docs/alerts.md, "Grouping per channel": the failures (and the recoveries) of a channel that
// come within its window go as one message. Each notification is written to the outbox at once
// with the time its group goes (group_until, due then); the dispatcher sends the rows of a
// channel and event due together as one message and records the outcome on each row.
import type { AlertEvent, AlertPayload } from '../../api/schemas/index.js';
import { groupWindowOf } from '../../domain/group-window.js';
import type { NotificationRow, StoredChannel } from '../storage/types.js';

/** The events grouped: a page and its recovery; the rest go one by one. */
const GROUPED: ReadonlySet<AlertEvent> = new Set<AlertEvent>(['failure', 'recovery']);

/**
 * When a notification of this event goes on this channel: the end of the window it falls in
 * (windows aligned on the epoch, so every instance and every restart agrees without reading
 * the others), or null when it is not grouped.
 */
export function groupUntil(channel: StoredChannel, event: AlertEvent, now: number): number | null {
  if (!GROUPED.has(event)) return null;
  const seconds = groupWindowOf(channel);
  if (seconds <= 0) return null;
  const ms = seconds * 1000;
  return Math.ceil((now + 1) / ms) * ms;
}

/** Claimed rows as the messages they make: a grouped row with its channel's others of one event and time. */
export function groupsOf(rows: readonly NotificationRow[]): NotificationRow[][] {
  const groups = new Map<string, NotificationRow[]>();
  const out: NotificationRow[][] = [];
  for (const row of rows) {
    if (row.groupUntil == null) {
      out.push([row]);
      continue;
    }
    const key = `${row.channelId}\u0000${row.event}\u0000${row.groupUntil}`;
    const group = groups.get(key);
    if (group) group.push(row);
    else {
      const fresh = [row];
      groups.set(key, fresh);
      out.push(fresh);
    }
  }
  return out;
}

const VERB: Partial<Record<AlertEvent, string>> = { failure: 'failing', recovery: 'recovered' };

/**
 * The one payload a group sends: the first row's, its check named "5 checks failing: a, b, …"
 * with each check's name (cleaned by the senders as any check name is), its failing locations
 * those of all. A group of one is the row's own payload.
 */
export function groupPayload(rows: readonly NotificationRow[]): Record<string, unknown> {
  const first = rows[0]!.payload as Partial<AlertPayload>;
  if (rows.length === 1 || !first.check) return rows[0]!.payload;
  const payloads = rows.map((r) => r.payload as Partial<AlertPayload>);
  const names = payloads.map((p) => p.check?.name ?? '?');
  const locations = new Map<string, { id: string; name: string }>();
  for (const p of payloads) for (const l of p.failingLocations ?? []) locations.set(l.id, l);
  const verb = VERB[rows[0]!.event] ?? rows[0]!.event;
  return {
    ...first,
    check: { ...first.check, name: `${rows.length} checks ${verb}: ${names.join(', ')}` },
    failingLocations: [...locations.values()],
    grouped: payloads.map((p) => ({ checkId: p.check?.id, name: p.check?.name, alertId: p.alertId })),
  };
}
