// Pages waiting for a hold's decision (docs/alerts.md, "No race") on SQLite: read grouped
// by what they wait on, and settled held (with the notices behind a held page) or released.
import type Database from 'better-sqlite3';
import type { Sync } from '../promised.js';
import { FAILURE_HELD } from '../rows.js';
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
  // The notices of an alert written after its failure on the same channel (a recovery, a
  // reminder, an acknowledgement) are held with it, as notify.ts holds those written after.
  const holdFollowers = db.prepare(
    `UPDATE alert_notifications SET status = 'suppressed', last_error = ?, next_attempt_at = NULL
     WHERE status = 'pending' AND event != 'failure' AND (lease_until IS NULL OR lease_until <= ?)
       AND EXISTS (SELECT 1 FROM alert_notifications h WHERE h.account_id = ? AND h.waiting_on = ?
         AND h.status = 'pending' AND (h.lease_until IS NULL OR h.lease_until <= ?)
         AND h.alert_id = alert_notifications.alert_id AND h.channel_id = alert_notifications.channel_id
         AND h.rowid < alert_notifications.rowid)`,
  );
  const held = db.transaction((reason: string, accountId: string, on: string, now: number) => {
    holdFollowers.run(FAILURE_HELD, now, accountId, on, now);
    return hold.run(reason, accountId, on, now).changes;
  });
  const release = db.prepare(
    `UPDATE alert_notifications SET waiting_on = NULL, last_error = NULL, next_attempt_at = max(min(next_attempt_at, ?), coalesce(group_until, 0))
     WHERE account_id = ? AND waiting_on = ? AND status = 'pending' AND next_attempt_at <= ?`,
  );
  return {
    waitingNotifications: () => groups.all() as WaitingGroup[],
    settleWaiting(accountId, on, outcome, now) {
      if ('held' in outcome) return held(outcome.held, accountId, on, now);
      const upTo = outcome.release === 'all' ? Number.MAX_SAFE_INTEGER : now;
      return release.run(now, accountId, on, upTo).changes;
    },
  };
}
