// The hold of a dependent's page by a failing parent (docs/alerts.md, "Dependencies"):
// per location (src/domain/dependency-status.ts says which parent fails where) and per channel:
// a channel's page is held only while that channel received, or holds, the parent's own
// failure page, so a parent with no channel, or under maintenance, silences nobody.
import type { CheckStatus } from '../../api/schemas/index.js';
import { heldByParent } from '../../domain/dependencies.js';
import { parentView } from '../../domain/dependency-status.js';
import { parentsIn } from '../config/dependency-keys.js';
import type { AccountConfig, CheckConfig } from '../config/schema.js';
import type { Storage } from '../storage/types.js';

/** One parent holding a dependent's page at a location, and the channels it holds it on. */
export interface ParentHold {
  parent: string;
  parentName: string;
  /** Where the parent fails, as the reason says it: the location's name, or the names of where it fails. */
  where: string;
  since: number;
  channels: ReadonlySet<number>;
}

export interface DependencyHoldDeps {
  storage: Pick<Storage, 'alertNotices'>;
  /** A check's status now (the status engine's statusOf). */
  statusOf(account: AccountConfig, check: CheckConfig): Promise<CheckStatus>;
}

export type DependencyHolds = ReturnType<typeof createDependencyHolds>;

export function createDependencyHolds(deps: DependencyHoldDeps) {
  /**
   * The parents holding the check's pages at `location`, earliest failure first. A channel
   * holds a parent's page when the parent's failure notice there is not suppressed, or is
   * suppressed because the parent's own parent holds it on that channel (a chain).
   */
  async function holdsAt(
    account: AccountConfig,
    check: CheckConfig,
    location: string,
  ): Promise<ParentHold[]> {
    const parents = parentsIn(account).get(check.id) ?? [];
    if (parents.length === 0) return [];
    const checks = parents.flatMap((id) => account.checks.filter((c) => c.id === id));
    const holds = await Promise.all(checks.map((parent) => parentHold(account, parent, location)));
    return holds.filter((h) => h !== undefined).sort((a, b) => a.since - b.since);
  }

  /** The hold of one parent at `location`, and the channels it holds there; undefined when none. */
  async function parentHold(
    account: AccountConfig,
    parent: CheckConfig,
    location: string,
  ): Promise<ParentHold | undefined> {
    const status = await deps.statusOf(account, parent);
    const view = parentView([status]);
    const held = heldByParent([parent.id], location, view.runsAt, view.failing);
    if (!held || !status.currentAlert) return undefined;
    const channels = await channelsOf(account, parent, status.currentAlert.id, location);
    if (channels.size === 0) return undefined;
    const failingAt = status.locations.filter((l) => l.status === 'failing');
    const where =
      held.location === null
        ? failingAt.map((l) => l.name).join(', ')
        : (failingAt.find((l) => l.id === held.location)?.name ?? held.location);
    return { parent: parent.id, parentName: parent.name, where, since: held.since, channels };
  }

  async function channelsOf(account: AccountConfig, parent: CheckConfig, alertId: string, location: string) {
    const failures = (await deps.storage.alertNotices(alertId)).filter((n) => n.event === 'failure');
    const out = new Set(failures.filter((n) => n.status !== 'suppressed').map((n) => n.channelId));
    if (failures.some((n) => n.status === 'suppressed' && !out.has(n.channelId))) {
      // Held there by its own parent: the channel holds the cause's page, so this one waits too.
      const above = await holdsAt(account, parent, location);
      for (const n of failures)
        if (n.status === 'suppressed' && above.some((h) => h.channels.has(n.channelId))) out.add(n.channelId);
    }
    return out;
  }

  return { holdsAt, parentHold };
}

/** Why a dependent's page to the channel is held, or undefined when no parent holds it there. */
export function dependencyReason(holds: readonly ParentHold[], channelId: number): string | undefined {
  const hold = holds.find((h) => h.channels.has(channelId));
  return hold && `suppressed: depends on ${hold.parentName}, failing at ${hold.where}`;
}
