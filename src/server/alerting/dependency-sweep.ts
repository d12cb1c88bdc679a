// A parent's recovery pages its dependents from the process that wrote the resolution
// (dependency-ends.ts); a kill between the two would lose those pages. So at each start every
// dependent whose alert is open, whose failure was held on every channel, and that no parent
// holds any more is paged once through pageStillFailing (docs/alerts.md, "Dependencies"):
// the page goes only to channels that have not had this alert's failure page (notify.ts
// notYetPaged), and its claim (kind dependency, the alert's opening as the end) makes it one.
import { parentsIn } from '../config/dependency-keys.js';
import type { Accounts } from '../config/accounts.js';
import type { AccountConfig, CheckConfig } from '../config/schema.js';
import type { HoldEnd, Storage } from '../storage/types.js';
import type { CheckStatus } from '../../api/schemas/index.js';
import type { DependencyHolds } from './dependency-hold.js';

export interface DependencySweepDeps {
  storage: Pick<Storage, 'openAlerts' | 'alertNotices'>;
  accounts: Pick<Accounts, 'byId'>;
  statusOf(account: AccountConfig, check: CheckConfig): Promise<CheckStatus>;
  holds: Pick<DependencyHolds, 'holdsAt'>;
  pageStillFailing(hold: HoldEnd, checks: readonly CheckConfig[]): Promise<number>;
}

/** Pages the dependents a stopped service left held with no parent failing; returns how many checks. */
export async function sweepDependencyEnds(deps: DependencySweepDeps): Promise<number> {
  let swept = 0;
  for (const alert of await deps.storage.openAlerts()) {
    const account = deps.accounts.byId(alert.accountId);
    const check = account?.checks.find((c) => c.id === alert.checkId);
    if (!account || !check || (parentsIn(account).get(check.id) ?? []).length === 0) continue;
    const failures = (await deps.storage.alertNotices(alert.id)).filter((n) => n.event === 'failure');
    if (failures.length === 0 || failures.some((n) => n.status !== 'suppressed')) continue;
    const status = await deps.statusOf(account, check);
    const failingAt = status.locations.filter((l) => l.status === 'failing').map((l) => l.id);
    const held = await Promise.all(failingAt.map((l) => deps.holds.holdsAt(account, check, l)));
    if (held.some((h) => h.length > 0)) continue;
    const hold: HoldEnd = {
      kind: 'dependency',
      accountId: account.id,
      id: check.id,
      name: 'its parents (found at start)',
      endsAt: alert.openedAt,
    };
    await deps.pageStillFailing(hold, [check]);
    swept++;
  }
  return swept;
}
