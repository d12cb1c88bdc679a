// The shared queue of scheduled runs (issue #12) on PostgreSQL. The unique run key
// makes an offer count once whichever instance makes it; claims take rows under
// `FOR UPDATE SKIP LOCKED`, so two claimers never get one run; a report is stored
// only while its token holds the run, in the transaction that completes it.
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { changed, first, rows, transaction } from './pg-db.js';
import { writeResults, writeScreenshot } from './pg-results.js';
import type { ClaimedRun, RunnerSeen, RunQueue, StoredRun } from './types.js';

const RUN_COLUMNS = `id, account_id AS "accountId", check_id AS "checkId", location_id AS "locationId",
  due_at AS "dueAt", coalesce(token, '') AS token, coalesce(lease_until, 0) AS "leaseUntil", attempt`;

export function createPgRunQueue(pool: pg.Pool, origin: string): RunQueue {
  return {
    /**
     * Without `claim` the run waits: it comes back with token "" and leaseUntil 0
     * (held by no one, claimable at once) and attempt 0.
     */
    async offerRun(key, now, claim) {
      const row = await first<ClaimedRun>(
        pool,
        `INSERT INTO runs (id, account_id, check_id, location_id, due_at, token, lease_until, attempt, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         ON CONFLICT (account_id, check_id, location_id, due_at) DO NOTHING
         RETURNING ${RUN_COLUMNS}`,
        [
          randomUUID(),
          key.accountId,
          key.checkId,
          key.locationId,
          key.dueAt,
          claim?.token ?? null,
          claim ? now + claim.leaseMs : null,
          claim ? 1 : 0,
          now,
        ],
      );
      return row ?? null;
    },

    async claimRuns(accountId, locationId, token, now, leaseMs, limit) {
      const claimed = await rows<ClaimedRun>(
        pool,
        `WITH picked AS (
           SELECT id AS picked_id FROM runs
           WHERE account_id = $1 AND location_id = $2 AND completed_at IS NULL
             AND (lease_until IS NULL OR lease_until <= $4)
           ORDER BY due_at, id LIMIT $6 FOR UPDATE SKIP LOCKED)
         UPDATE runs r SET token = $3, lease_until = $5, attempt = attempt + 1
         FROM picked WHERE r.id = picked.picked_id
         RETURNING ${RUN_COLUMNS}`,
        [accountId, locationId, token, now, now + leaseMs, limit],
      );
      return claimed.sort((a, b) => a.dueAt - b.dueAt || (a.id < b.id ? -1 : 1));
    },

    completeRun: (runId, token, accountId, result, screenshot) =>
      transaction(pool, async (c) => {
        // The row lock orders this after any claim under way, which may take the run over.
        const run = await first<{ token: string | null; completed_at: number | null }>(
          c,
          'SELECT token, completed_at FROM runs WHERE id = $1 FOR UPDATE',
          [runId],
        );
        if (!run || run.token !== token || run.completed_at !== null) return false;
        await writeResults(c, origin, accountId, [result]);
        if (screenshot) await writeScreenshot(c, accountId, result, screenshot);
        await c.query('UPDATE runs SET completed_at = $1 WHERE id = $2', [Date.now(), runId]);
        return true;
      }),

    async findRun(runId) {
      const row = await first<StoredRun>(
        pool,
        `SELECT id, account_id AS "accountId", check_id AS "checkId", location_id AS "locationId",
           due_at AS "dueAt", token, lease_until AS "leaseUntil", attempt, completed_at AS "completedAt"
         FROM runs WHERE id = $1`,
        [runId],
      );
      return row ?? null;
    },

    pruneRuns: (before) => changed(pool, 'DELETE FROM runs WHERE due_at < $1', [before]),

    async recordRunnerSeen(seen) {
      await pool.query(
        `INSERT INTO runners_seen (account_id, location_id, runner_id, last_seen_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (account_id, location_id, runner_id)
         DO UPDATE SET last_seen_at = greatest(runners_seen.last_seen_at, excluded.last_seen_at)`,
        [seen.accountId, seen.locationId, seen.runnerId, seen.lastSeenAt],
      );
    },

    runnersSeen: () =>
      rows<RunnerSeen>(
        pool,
        `SELECT account_id AS "accountId", location_id AS "locationId", runner_id AS "runnerId",
           last_seen_at AS "lastSeenAt" FROM runners_seen
         ORDER BY account_id COLLATE "C", location_id COLLATE "C", runner_id COLLATE "C"`,
      ),
  };
}
