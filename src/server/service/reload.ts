// A reload: checks added, changed, disabled or removed take effect at once; stored
// results stay; runs in flight finish.
import { seedChannels } from '../alerting/seed-channels.js';
import { diffConfig, type ReloadSummary } from '../config/diff.js';
import type { ServiceConfig } from '../config/schema.js';
import type { StatusEngine } from '../status/engine.js';
import type { Warmer } from '../status/warmer.js';
import type { Base } from './base.js';
import type { Holds } from './holds.js';
import type { RunSide } from './run-side.js';

export function reloader(
  { clock, storage, accounts, live }: Base,
  parts: { holds: Holds; run: RunSide; engine: StatusEngine; warmer: Warmer },
) {
  return async (next: ServiceConfig): Promise<ReloadSummary> => {
    const { summary, moved } = diffConfig(live.config, next);
    const known = new Set(live.config.accounts.map((a) => a.id));
    // Past this line the new config is in force: a step the database fails is told in the
    // summary's `waiting` ("config reloaded, but …") and the others still run, never thrown,
    // which would be logged as "the previous one keeps running" over a config half applied.
    const step = async (what: string, work: () => Promise<void>) => {
      try {
        await work();
      } catch (error) {
        summary.waiting.push(`${what}: ${(error as Error).message}`);
      }
    };
    live.config = next;
    accounts.replace(next);
    // The config's windows are read again (a group or tag now covering a new check included).
    await step(
      'maintenance windows in force, but the statuses they cover not derived again (their next results do)',
      () => parts.holds.maintenance.replaceConfig(next),
    );
    // A person's pause outlives the reload; and the runs waiting for the slots it removed are withdrawn.
    const scheduled = parts.holds.scheduled(next);
    await parts.run.scheduler.reload(scheduled);
    // A heartbeat whose schedule, grace or token moved begins again from now: before its status is read again.
    parts.run.heartbeats.watch(scheduled);
    parts.run.hub.replace(next);
    parts.warmer.reload(next);
    parts.engine.rereadChecks(moved); // statuses embed their check's config: those it moved are read again
    const added = next.accounts.filter((a) => !known.has(a.id));
    await step('alert channels of the new accounts not created', () =>
      seedChannels({ ...next, accounts: added }, storage, clock.now()),
    );
    return summary;
  };
}
