// Which checks a window's scope covers now (docs/maintenance.md): on the wire as
// `coveredChecks`, and the reason a window over nothing is refused (or, from the
// config, warned about): a deploy script's typo in a tag must not pass silently.
import type { AccountConfig } from '../config/schema.js';
import { scopeCovers } from '../config/scope.js';
import type { StoredWindow } from '../storage/types.js';

/** The ids of the account's checks the scope covers now, in the config's order. */
export function coveredChecks(account: AccountConfig, scope: StoredWindow['scope']): string[] {
  return account.checks.filter((c) => scopeCovers(scope, c)).map((c) => c.id);
}

/** Why a scope covers no check now ("no check has tag T; no check is in group G"); undefined when it covers one. */
export function emptyScopeReason(account: AccountConfig, scope: StoredWindow['scope']): string | undefined {
  if (coveredChecks(account, scope).length > 0) return undefined;
  const why = [
    ...(scope.tags ?? []).map((t) => `no check has tag "${t}"`),
    ...(scope.groups ?? []).map((g) => `no check is in group "${g}"`),
  ];
  return why.length > 0 ? why.join('; ') : 'the scope covers no check';
}
