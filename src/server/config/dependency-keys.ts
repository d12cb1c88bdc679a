// A check's or a group's dependencies (docs/alerts.md, "Dependencies"): while a parent
// fails at a location, the dependent's pages there are held. The rules are
// src/domain/dependencies.ts; here the config key and its check at load.
import { z } from 'zod';
import {
  dependencyErrors,
  parentChecks,
  type DependentCheck,
  type DependentGroup,
} from '../../domain/dependencies.js';

export const DEPENDENCY_KEYS = {
  /** The checks (by id) and groups (`group:<id>`) this one depends on; a check inherits its group's. */
  dependsOn: z.array(z.string().min(1)).max(100, 'must name at most 100 parents').optional(),
};

/** An unknown id or a cycle among the account's declarations is a config error naming the path. */
export function refineDependencies(
  account: { checks: readonly DependentCheck[]; groups: readonly DependentGroup[] },
  ctx: z.RefinementCtx,
): void {
  for (const error of dependencyErrors(account.checks, account.groups))
    ctx.addIssue({ code: 'custom', path: error.path, message: error.message });
}

const parentsCache = new WeakMap<object, Map<string, string[]>>();

/** Each check's parent checks (a group parent expanded), worked out once per account config. */
export function parentsIn(account: {
  checks: readonly DependentCheck[];
  groups: readonly DependentGroup[];
}): ReadonlyMap<string, readonly string[]> {
  let parents = parentsCache.get(account);
  if (!parents) parentsCache.set(account, (parents = parentChecks(account.checks, account.groups)));
  return parents;
}
