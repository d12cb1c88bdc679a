// Which parent holds a check's pages now (docs/alerts.md, "Dependencies"), read from the
// account's statuses alone (src/domain/dependency-status.ts), shown as `heldBy`.
import type { CheckStatus } from '../../api/schemas/index.js';
import { withHeldBy } from './held.js';
import { dependencyHoldOf, parentView } from '../../domain/dependency-status.js';
import type { AccountConfig, CheckConfig } from '../config/schema.js';
import { parentsIn } from '../config/dependency-keys.js';

/**
 * The statuses with `heldBy` naming a failing parent; a status a maintenance window holds
 * (or that names a hold already) is left as it is: maintenance comes first.
 */
export function withDependencyHolds(account: AccountConfig, statuses: readonly CheckStatus[]): CheckStatus[] {
  const parents = parentsIn(account);
  if (![...parents.values()].some((p) => p.length > 0)) return [...statuses];
  const view = parentView(statuses);
  return statuses.map((s) => {
    if (s.maintenance || s.heldBy) return s;
    const held = dependencyHoldOf(s, parents.get(s.checkId) ?? [], view);
    if (!held) return s;
    return withHeldBy(s, {
      kind: 'dependency',
      id: held.parent,
      name: view.byId.get(held.parent)?.checkName ?? held.parent,
      since: new Date(held.since).toISOString(),
      location: held.location,
    });
  });
}

/** One check's status with its `heldBy` (the pause and resume answers), reading only its parents'. */
export async function statusWithHold(
  account: AccountConfig,
  check: CheckConfig,
  statusOf: (account: AccountConfig, check: CheckConfig) => Promise<CheckStatus>,
): Promise<CheckStatus> {
  const status = await statusOf(account, check);
  const ids = parentsIn(account).get(check.id) ?? [];
  if (ids.length === 0) return status;
  const parents = account.checks.filter((c) => ids.includes(c.id));
  const statuses = [status, ...(await Promise.all(parents.map((c) => statusOf(account, c))))];
  return withDependencyHolds(account, statuses)[0]!;
}
