// Pages waiting for a hold's decision (docs/alerts.md, "No race") on PostgreSQL, shared by
// every instance: whichever settles them first does, the others find nothing left.
import type pg from 'pg';
import { changed, rows } from './db.js';
import { FAILURE_HELD } from '../rows.js';
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
          // The notices of an alert written after its failure on the same channel (a recovery, a
          // reminder, an acknowledgement) are held with it, as notify.ts holds those written after.
          `WITH held AS (
             UPDATE alert_notifications SET status = 'suppressed', last_error = $1, next_attempt_at = NULL,
               waiting_on = NULL
             WHERE account_id = $2 AND waiting_on = $3 AND status = 'pending'
               AND (lease_until IS NULL OR lease_until <= $4)
             RETURNING alert_id, channel_id, seq),
           followers AS (
             UPDATE alert_notifications n SET status = 'suppressed', last_error = $5, next_attempt_at = NULL
             FROM held h WHERE h.alert_id = n.alert_id AND h.channel_id = n.channel_id AND h.seq < n.seq
               AND n.status = 'pending' AND n.event != 'failure' AND (n.lease_until IS NULL OR n.lease_until <= $4))
           SELECT 1 FROM held`,
          [outcome.held, accountId, on, now, FAILURE_HELD],
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
