// The page when a hold ends (docs/alerts.md, "When a hold ends"): a maintenance window now,
// a failing parent or a broken location later. Each check the hold covered that is still
// failing (its alert open) pages once, saying so; one that recovered sends nothing (its
// recovery was held with its failure). Each check's page is written with its claim of
// the end in one transaction, in order with the check's results: a kill before the commit
// leaves the end to page for at the next start, a kill after it leaves the page in the
// outbox, and a second look (another instance, a restart) finds it claimed.
import { crashPoint } from '../crash-point.js';
import type { Accounts } from '../config/accounts.js';
import type { CheckStatus } from '../../api/schemas/index.js';
import type { AccountConfig, CheckConfig } from '../config/schema.js';
import type { HoldEnd, Storage } from '../storage/types.js';
import type { AlertPlanner } from './planner.js';

/** What it needs of check statuses (alerting/index.ts CheckStatuses). */
interface Statuses {
  perCheck<T>(account: AccountConfig, check: CheckConfig, job: () => Promise<T>): Promise<T>;
  statusOf(account: AccountConfig, check: CheckConfig): Promise<CheckStatus>;
}

export interface HoldEndDeps {
  storage: Pick<Storage, 'openAlert' | 'applyAlertChange'>;
  accounts: Accounts;
  engine: Statuses;
  planner: Pick<AlertPlanner, 'afterHold'>;
  /** New notifications were written. */
  kick: () => void;
}

/** pageStillFailing(hold, checks): the pages of one hold's end; resolves once each is written. */
export function createHoldEndPages(deps: HoldEndDeps) {
  const { storage, engine } = deps;
  return async function pageStillFailing(hold: HoldEnd, checks: readonly CheckConfig[]): Promise<number> {
    const account = deps.accounts.byId(hold.accountId);
    if (!account) return 0;
    let queued = 0;
    for (const check of checks) {
      queued += await engine.perCheck(account, check, async () => {
        const open = await storage.openAlert(account.id, check.id);
        if (!open) return 0;
        // Still failing: its alert is open (a recovery resolves it); the status may be
        // unknown meanwhile (runs grown old, a pause), which does not mean it recovered.
        const status = await engine.statusOf(account, check);
        const change = await deps.planner.afterHold(account, check, open, status, hold);
        await storage.applyAlertChange(account.id, change);
        return change.notifications.length;
      });
    }
    if (queued > 0) deps.kick();
    // Claimed and written, not yet marked looked at: a restart looks again and finds the claims.
    crashPoint('window ending');
    return queued;
  };
}
