// A channel's subscriptions as rows of channel_subscriptions (kind, target), the same on
// SQLite and PostgreSQL: a check, a group, or a location whose outages it hears.
import type { Subscriptions } from '../../api/schemas/index.js';

const KINDS = [
  ['checks', 'check'],
  ['groups', 'group'],
  ['locations', 'location'],
] as const;

export const noSubscriptions = (): Subscriptions => ({ checks: [], groups: [], locations: [] });

/** The rows to write, in the order of the keys. */
export function subscriptionRows(subs: Subscriptions): Array<{ kind: string; target: string }> {
  return KINDS.flatMap(([key, kind]) => subs[key].map((target) => ({ kind, target })));
}

/** Rows read back (a kind this version does not know is left out). */
export function subscriptionsOf(rows: ReadonlyArray<{ kind: string; target: string }>): Subscriptions {
  const subs = noSubscriptions();
  for (const { kind, target } of rows) {
    const key = KINDS.find(([, k]) => k === kind)?.[0];
    if (key) subs[key].push(target);
  }
  return subs;
}
