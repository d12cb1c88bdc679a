// Pages waiting for a hold's decision (docs/alerts.md, "No race") on SQLite: read grouped
// by what they wait on, and settled held or released in one statement.
import type Database from 'better-sqlite3';
import type { Sync } from '../promised.js';
import type { Storage, WaitingGroup } from '../types.js';

type WaitingStore = Pick<Sync<Storage>, 'waitingNotifications' | 'settleWaiting'>;

export function createWaitingStore(db: Database.Database): WaitingStore {
  const groups = db.prepare(
    `SELECT account_id AS accountId, waiting_on AS "on", min(created_at) AS since, min(next_attempt_at) AS "until"
     FROM alert_notifications WHERE waiting_on IS NOT NULL AND status = 'pending'
     GROUP BY account_id, waiting_on`,
  );
  const hold = db.prepare(
    `UPDATE alert_notifications SET status = 'suppressed', last_error = ?, next_attempt_at = NULL, waiting_on = NULL
     WHERE account_id = ? AND waiting_on = ? AND status = 'pending' AND (lease_until IS NULL OR lease_until <= ?)`,
  );
  const release = db.prepare(
    `UPDATE alert_notifications SET waiting_on = NULL, last_error = NULL, next_attempt_at = max(min(next_attempt_at, ?), coalesce(group_until, 0))
     WHERE account_id = ? AND waiting_on = ? AND status = 'pending' AND next_attempt_at <= ?`,
  );
  return {
    waitingNotifications: () => groups.all() as WaitingGroup[],
    settleWaiting(accountId, on, outcome, now) {
      if ('held' in outcome) return hold.run(outcome.held, accountId, on, now).changes;
      const upTo = outcome.release === 'all' ? Number.MAX_SAFE_INTEGER : now;
      return release.run(now, accountId, on, upTo).changes;
    },
  };
}
