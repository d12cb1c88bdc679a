// docs/alerts.md, "No race", for dependencies: a dependent's failure page at a location waits
// on its delivery row while a parent there has not run since the dependent's failing run (the
// parent may be failing too and not know it yet), at most the parent's frequency plus its
// timeout (60 s at most). It is settled as soon as the parent decides it: held on a channel that
// has (or holds) the parent's page, sent when the parent ran since and is not failing, and sent
// when the wait runs out. One group of waiting rows per parent, location and channel, so each
// channel is held or released on its own (a hold is per channel).
import type { CheckResult, CheckStatus } from '../../api/schemas/index.js';
import { parentsIn } from '../config/dependency-keys.js';
import { frequencyToMs } from '../config/frequency.js';
import type { Accounts } from '../config/accounts.js';
import type { AccountConfig, CheckConfig } from '../config/schema.js';
import type { Storage, WaitingGroup } from '../storage/types.js';
import { dependencyReason, type DependencyHolds } from './dependency-hold.js';

const MAX_WAIT_MS = 60_000;
const PREFIX = 'dependency:';

/** What a page waits on: the parent, where, the channel, and the start of the dependent's failing run (ms). */
export const dependencyWaitKey = (parent: string, location: string, channel: number, since: number) =>
  `${PREFIX}${parent}@${location}#${channel}~${since}`;

function parseKey(on: string): { parent: string; location: string; channel: number; since: number } | null {
  const m = /^dependency:(.+)@(.+)#(\d+)~(\d+)$/.exec(on);
  return m ? { parent: m[1]!, location: m[2]!, channel: Number(m[3]), since: Number(m[4]) } : null;
}

export const isDependencyWait = (on: string) => on.startsWith(PREFIX);

/** A parent has decided since `since` when it ran since then (anywhere). */
const ranSince = (status: CheckStatus, since: number) =>
  status.lastExecution !== null && Date.parse(status.lastExecution.timestamp) >= since;

export interface DependencyWaitDeps {
  storage: Pick<Storage, 'settleWaiting'>;
  accounts: Pick<Accounts, 'byId'>;
  statusOf(account: AccountConfig, check: CheckConfig): Promise<CheckStatus>;
  holds: Pick<DependencyHolds, 'parentHold'>;
}

export function createDependencyWaits(deps: DependencyWaitDeps) {
  /**
   * The parent a failure page of `check` from `result` waits for, and how long: the first of
   * its parents running at the result's location (or anywhere, when none does) that has not run
   * since the result started and is not failing already; undefined when none.
   */
  async function waitFor(
    account: AccountConfig,
    check: CheckConfig,
    result: CheckResult,
  ): Promise<{ parent: string; location: string; ms: number; name: string; since: number } | undefined> {
    const ids = parentsIn(account).get(check.id) ?? [];
    const parents = account.checks.filter((c) => ids.includes(c.id) && c.enabled);
    const location = result.location.id;
    const here = parents.filter((p) => p.locations.includes(location));
    const since = Date.parse(result.startedAt);
    for (const parent of here.length > 0 ? here : parents) {
      const status = await deps.statusOf(account, parent);
      if (status.status === 'failing' || ranSince(status, since)) continue;
      const ms = Math.min(frequencyToMs(parent.frequency) + parent.timeoutMs, MAX_WAIT_MS);
      return { parent: parent.id, location, ms, name: parent.name, since };
    }
    return undefined;
  }

  /** Settles the groups waiting on parents; returns how many pages go now. */
  async function settle(groups: readonly WaitingGroup[], now: number): Promise<number> {
    let released = 0;
    for (const group of groups) {
      const key = parseKey(group.on);
      const account = deps.accounts.byId(group.accountId);
      const parent = key && account?.checks.find((c) => c.id === key.parent);
      const release = (which: 'all' | 'expired') =>
        deps.storage.settleWaiting(group.accountId, group.on, { release: which }, now);
      if (!key || !account || !parent) {
        released += await release('all');
        continue;
      }
      const hold = await deps.holds.parentHold(account, parent, key.location);
      const held = hold && dependencyReason([hold], key.channel);
      if (held) await deps.storage.settleWaiting(group.accountId, group.on, { held }, now);
      else {
        const status = await deps.statusOf(account, parent);
        const decided = status.status !== 'failing' && ranSince(status, key.since);
        if (decided || group.until <= now) released += await release(decided ? 'all' : 'expired');
      }
    }
    return released;
  }

  return { waitFor, settle };
}
