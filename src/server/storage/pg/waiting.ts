// Pages waiting for a hold's decision (docs/alerts.md, "No race") on PostgreSQL, shared by
// every instance: whichever settles them first does, the others find nothing left.
import type pg from 'pg';
import { changed, rows } from './db.js';
import type { Storage, WaitingGroup } from '../types.js';

type WaitingStore = Pick<Storage, 'waitingNotifications' | 'settleWaiting'>;

export function createPgWaitingStore(pool: pg.Pool): WaitingStore {
  return {
    waitingNotifications: () =>
      rows<WaitingGroup>(
        pool,
        `SELECT account_id AS "accountId", waiting_on AS "on", min(created_at) AS since, min(next_attempt_at) AS "until"
         FROM alert_notifications WHERE waiting_on IS NOT NULL AND status = 'pending'
         GROUP BY account_id, waiting_on`,
      ),
    settleWaiting(accountId, on, outcome, now) {
      if ('held' in outcome)
        return changed(
          pool,
          `UPDATE alert_notifications SET status = 'suppressed', last_error = $1, next_attempt_at = NULL,
             waiting_on = NULL
           WHERE account_id = $2 AND waiting_on = $3 AND status = 'pending'
             AND (lease_until IS NULL OR lease_until <= $4)`,
          [outcome.held, accountId, on, now],
        );
      const upTo = outcome.release === 'all' ? Number.MAX_SAFE_INTEGER : now;
      return changed(
        pool,
        `UPDATE alert_notifications SET waiting_on = NULL, last_error = NULL,
           next_attempt_at = greatest(least(next_attempt_at, $1), coalesce(group_until, 0))
         WHERE account_id = $2 AND waiting_on = $3 AND status = 'pending' AND next_attempt_at <= $4`,
        [now, accountId, on, upTo],
      );
    },
  };
}
