// Where a check's certificate warning stands (docs/certificates.md, "The certificate event"):
// the tracker channels (audience.ts keepsAlertOpen) whose last `certificate` of the check
// came after their last `certificate-end`. The delivery log in storage is the truth, kept
// across restarts and shared by the instances of one PostgreSQL; this keeps what it read,
// so that a result whose certificate is far from expiry (nearly every result) and the
// Alertmanager sweep every 5 s read nothing. A check is read once after a start and again
// after REREAD_MS: a warning another instance sent is known here within that time.
import type { AccountConfig, CheckConfig } from '../config/schema.js';
import type { Storage } from '../storage/types.js';
import { keepsAlertOpen } from './audience.js';
import { warnedAt } from './notify.js';

export const REREAD_MS = 5 * 60_000;

const NOWHERE: ReadonlySet<number> = new Set();

interface Kept {
  channels: ReadonlySet<number>;
  readAt: number;
}

export type CertificateWarnings = ReturnType<typeof createCertificateWarnings>;

export function createCertificateWarnings(deps: { storage: Storage; now: () => number }) {
  const kept = new Map<string, Kept>();
  const keyOf = (account: AccountConfig, check: CheckConfig) => `${account.id}\0${check.id}`;
  const keep = (
    account: AccountConfig,
    check: CheckConfig,
    channels: ReadonlySet<number>,
    readAt: number,
  ) => {
    kept.set(keyOf(account, check), { channels, readAt });
    return channels;
  };

  return {
    /** The ids of the channels where the check's warning stands: as kept, or read when not kept lately. */
    async standing(account: AccountConfig, check: CheckConfig): Promise<ReadonlySet<number>> {
      const known = kept.get(keyOf(account, check));
      const now = deps.now();
      if (known && now - known.readAt < REREAD_MS) return known.channels;
      const trackers = (await deps.storage.subscribedChannels(account.id, check.id, check.group)).filter(
        (c) => keepsAlertOpen(c),
      );
      const at = await warnedAt(deps.storage, account.id, check.id, trackers, 'certificate');
      return keep(account, check, new Set(at.map((c) => c.id)), now);
    },
    /** What is kept of the check, however old, without a read; undefined when nothing is. */
    peek: (account: AccountConfig, check: CheckConfig): ReadonlySet<number> | undefined =>
      kept.get(keyOf(account, check))?.channels,
    /**
     * A warning planned to these channels, written with the result's change (a person's channel
     * among them costs one needless look at the end). Kept before it is written, so the sweep
     * that reads between the two does not miss it; a check not read yet is read when next asked.
     */
    sent(account: AccountConfig, check: CheckConfig, channelIds: readonly number[]) {
      // None (held by a maintenance window): what stood before is as it was, kept or not.
      if (channelIds.length === 0) return;
      const known = kept.get(keyOf(account, check));
      const channels = new Set([...(known?.channels ?? []), ...channelIds]);
      keep(account, check, channels, known?.readAt ?? Number.NEGATIVE_INFINITY);
    },
    /** Its end planned: it stands nowhere now. */
    ended(account: AccountConfig, check: CheckConfig) {
      keep(account, check, NOWHERE, deps.now());
    },
    /** What is kept was wrong (a repost found no warning): read afresh when next asked. */
    forget(account: AccountConfig, check: CheckConfig) {
      kept.delete(keyOf(account, check));
    },
  };
}
