// A channel's subscriptions name checks, groups and locations of its account: a misspelt
// id would leave a channel that never pages, so the config load and the API both refuse it.
import type { Subscriptions } from '../../api/schemas/index.js';

interface Known {
  checks: ReadonlyArray<{ id: string }>;
  groups: ReadonlyArray<{ id: string }>;
  locations: ReadonlyArray<{ id: string }>;
}

const WORDS = { checks: 'check', groups: 'group', locations: 'location' } as const;

/** Each id the account does not have: its key, its index and the message. */
export function unknownSubscriptions(
  account: Known,
  subs: Partial<Subscriptions>,
): Array<{ key: keyof typeof WORDS; index: number; label: string; message: string }> {
  return (Object.keys(WORDS) as Array<keyof typeof WORDS>).flatMap((key) => {
    const known = new Set(account[key].map((x) => x.id));
    return (subs[key] ?? []).flatMap((id, index) =>
      known.has(id)
        ? []
        : [
            {
              key,
              index,
              label: `${WORDS[key]} "${id}"`,
              message: `no ${WORDS[key]} "${id}" in this account`,
            },
          ],
    );
  });
}
