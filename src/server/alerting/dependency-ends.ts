// A parent's recovery ends its hold over its dependents (docs/alerts.md, "Dependencies"):
// when a status change resolves a check's alert, each check depending on it hears of it
// (the listener, wired in service/wiring.ts, pages those still failing once through
// pageStillFailing, in order after the resolution is written).
import { parentsIn } from '../config/dependency-keys.js';
import type { AccountConfig, CheckConfig } from '../config/schema.js';
import type { HoldEnd } from '../storage/types.js';
import { logFailure } from '../storage/observed.js';

export type DependencyEndListener = (
  account: AccountConfig,
  parent: CheckConfig,
  hold: HoldEnd,
  dependents: CheckConfig[],
) => Promise<unknown>;

/** What is read of a status change (status/engine.ts StatusChange). */
interface Changed {
  account: AccountConfig;
  check: CheckConfig;
}

export function createDependencyEnds(now: () => number) {
  const listeners = new Set<DependencyEndListener>();

  function ended(account: AccountConfig, parent: CheckConfig) {
    const parents = parentsIn(account);
    const dependents = account.checks.filter((c) => parents.get(c.id)?.includes(parent.id));
    if (dependents.length === 0) return;
    const { id, name } = parent;
    const hold: HoldEnd = { kind: 'dependency', accountId: account.id, id, name, endsAt: now() };
    for (const listener of listeners)
      void listener(account, parent, hold, dependents).catch((error: unknown) =>
        logFailure('checkwall: the pages at a parent check’s recovery failed', error),
      );
  }

  return {
    /** The planner, as the status engine calls it, telling of each alert a change resolves. */
    watch<C extends Changed, P extends { resolveAlert?: string | undefined } | null>(alerts: {
      onStatusChange(change: C): Promise<P>;
    }) {
      return {
        async onStatusChange(change: C): Promise<P> {
          const plan = await alerts.onStatusChange(change);
          if (plan?.resolveAlert) ended(change.account, change.check);
          return plan;
        },
      };
    },
    onEnded(listener: DependencyEndListener) {
      listeners.add(listener);
    },
  };
}
