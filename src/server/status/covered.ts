// The statuses a maintenance window's start or end moves are derived at once, not at the
// warmer's turn, so a silence made from the console shows on the board at its next poll.
import type { Accounts } from '../config/accounts.js';
import type { AccountConfig, CheckConfig } from '../config/schema.js';
import { scopeCovers } from '../config/scope.js';
import { logFailure } from '../storage/observed.js';
import type { StoredWindow } from '../storage/types.js';

export interface CoveredStatuses {
  rereadCheck(account: AccountConfig, check: CheckConfig): Promise<unknown>;
  statusOf(account: AccountConfig, check: CheckConfig): Promise<unknown>;
}

/** Derives the status of every check the windows cover (the read settles when all are). */
export async function deriveCovered(
  engine: CoveredStatuses,
  accounts: Pick<Accounts, 'byId'>,
  windows: readonly StoredWindow[],
): Promise<void> {
  const derived: Array<Promise<unknown>> = [];
  for (const window of windows) {
    const account = accounts.byId(window.accountId);
    for (const check of account?.checks ?? [])
      if (account && scopeCovers(window.scope, check))
        derived.push(
          // A window excluding runs from availability needs the check's runs one by one: read anew.
          (window.excludeFromAvailability
            ? engine.rereadCheck(account, check)
            : engine.statusOf(account, check)
          ).catch((error: unknown) =>
            logFailure(`checkwall: cannot derive the status of ${check.id}`, error),
          ),
        );
  }
  await Promise.all(derived);
}
