// The stale-run rule of docs/actions.md in SQL, the same on SQLite and PostgreSQL: a run that is not
// started late (run-queue.ts skipStaleRuns), and why. `now` is the statement's
// parameter for the time (`@now` on SQLite, `$n` on PostgreSQL).
import { SKIP_REASONS } from './run-queue.js';

/** A run of `runs` past its stale_at, or a scheduled run with a newer scheduled run of its place due. */
export const staleWhere = (now: string) => `((runs.stale_at IS NOT NULL AND runs.stale_at <= ${now})
  OR (runs.triggered_by = 'schedule' AND EXISTS (
    SELECT 1 FROM runs newer WHERE newer.account_id = runs.account_id AND newer.check_id = runs.check_id
      AND newer.location_id = runs.location_id AND newer.triggered_by = 'schedule'
      AND newer.due_at > runs.due_at AND newer.due_at <= ${now})))`;

/** Why a run of staleWhere is skipped. */
export const staleReason = (now: string) => `CASE WHEN runs.stale_at IS NOT NULL AND runs.stale_at <= ${now}
  THEN CASE WHEN runs.triggered_by = 'schedule' THEN '${SKIP_REASONS.stale}' ELSE '${SKIP_REASONS.unclaimed}' END
  ELSE '${SKIP_REASONS.superseded}' END`;
