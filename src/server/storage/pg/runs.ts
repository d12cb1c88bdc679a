// The shared queue of scheduled runs (docs/runners.md) on PostgreSQL. The unique run key
// makes an offer count once whichever instance makes it; claims take rows under
// `FOR UPDATE SKIP LOCKED`, so two claimers never get one run; a report is stored
// only while its token holds the run, in the transaction that completes it.
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { CheckResult } from '../../../api/schemas/index.js';
import { rollupSql } from '../history.js';
import { batched } from '../batched.js';
import { changed, columnsOf, rows, unnestArgs, unnestParams } from './db.js';
import { CHANGES_CHANNEL } from './changes.js';
import {
  CARRIED_RESULTS,
  changeSql,
  RESULT_TYPES,
  resultRow,
  upsertResults,
  upsertScreenshots,
} from './results.js';
import { SKIP_REASONS } from '../run-queue.js';
import { staleReason, staleWhere } from '../stale-sql.js';
import type { ClaimedRun, RunKey, RunnerSeen, RunQueue, SkippedRun, StoredRun } from '../types.js';

const RUN_COLUMNS = `id, account_id AS "accountId", check_id AS "checkId", location_id AS "locationId",
  due_at AS "dueAt", coalesce(token, '') AS token, coalesce(lease_until, 0) AS "leaseUntil", attempt,
  triggered_by AS "triggeredBy"`;
const STORED_COLUMNS = `id, account_id AS "accountId", check_id AS "checkId", location_id AS "locationId",
  due_at AS "dueAt", token, lease_until AS "leaseUntil", attempt, completed_at AS "completedAt",
  triggered_by AS "triggeredBy", skipped, ok`;

interface Offer {
  key: RunKey;
  now: number;
  claim: { token: string; leaseMs: number } | undefined;
  staleAt: number | undefined;
}

interface Report {
  runId: string;
  token: string;
  accountId: string;
  result: CheckResult;
  screenshot: Uint8Array | undefined;
}

// Offers, reports and look-ups made while a batch is out go together in the next
// one (batched.ts): at 10,000 checks each instance offers every run and stores a
// run's result once, and one statement for many is what keeps the database's work
// per run small. At most CARRIED_RESULTS a statement, so a stored result's NOTIFY
// still carries it to the other instances (pg/results.ts).
const BATCH = { max: CARRIED_RESULTS, inFlight: 2 };

const INSTANCE_PREFIX = 'checkwall instance ';
/** The `application_name` of an instance's own connection: how the others know it is there. */
export const instanceName = (origin: string) => `${INSTANCE_PREFIX}${origin}`;

const heldBy = (runId: string, token: string) => `${runId}\u0000${token}`;

// The reports of a batch, one statement (so one round trip, and atomic without a
// transaction): the runs still open under each report's token are locked in id
// order (two instances' batches never wait on each other in a cycle, and a claim
// under way is waited for, its new token then re-checked), completed, and only
// their results, screenshots and changes (pg/changes.ts: sent at the commit) are
// stored. The rows are $2 onwards: a result's columns, its run, the token, its png; then the origin.
const REPORTED_TYPES = [...RESULT_TYPES, 'text', 'text', 'bytea'];
const REPORTED = unnestArgs(REPORTED_TYPES, 2);
const COMPLETE = `WITH reported AS (
    SELECT * FROM unnest(${REPORTED})
      AS x(id, account_id, check_id, location_id, ok, started_at, duration, response_time, triggered_by,
        json, run_id, token, png)),
  held AS (
    SELECT runs.id FROM runs JOIN reported ON runs.id = reported.run_id AND runs.token = reported.token
    WHERE runs.completed_at IS NULL ORDER BY runs.id FOR UPDATE OF runs),
  done AS (
    UPDATE runs SET completed_at = $1, ok = reported.ok FROM held JOIN reported ON reported.run_id = held.id
    WHERE runs.id = held.id AND runs.token = reported.token RETURNING runs.id, runs.token),
  kept AS (
    SELECT reported.* FROM reported JOIN done ON done.id = reported.run_id AND done.token = reported.token),
  stored AS (${upsertResults(
    `SELECT id, account_id, check_id, location_id, ok, started_at, duration, response_time, triggered_by, json
     FROM kept`,
  )}),
  hourly_ AS (${rollupSql('hour', 'kept')}),
  daily_ AS (${rollupSql('day', 'kept')}),
  shots AS (${upsertScreenshots(
    'SELECT id, account_id, check_id, started_at, png FROM kept WHERE png IS NOT NULL',
  )})
  SELECT run_id AS id, token, pg_notify('${CHANGES_CHANNEL}', ${changeSql(`$${REPORTED_TYPES.length + 2}`)})
  FROM kept`;

export function createPgRunQueue(pool: pg.Pool, origin: string): RunQueue {
  const offer = batched(async (offers: Offer[]) => {
    const keyOf = (k: RunKey) => `${k.accountId}\u0000${k.checkId}\u0000${k.locationId}\u0000${k.dueAt}`;
    const cols = columnsOf(
      offers.map(({ key, now, claim, staleAt }) => [
        randomUUID(),
        key.accountId,
        key.checkId,
        key.locationId,
        key.dueAt,
        claim?.token ?? null,
        claim ? now + claim.leaseMs : null,
        claim ? 1 : 0,
        now,
        staleAt ?? null,
      ]),
      10,
    );
    // A key offered twice in one batch: the first row is inserted, the second conflicts with it.
    const created = await rows<ClaimedRun>(
      pool,
      `INSERT INTO runs (id, account_id, check_id, location_id, due_at, token, lease_until, attempt, created_at,
         stale_at)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::text[],
         $7::bigint[], $8::int[], $9::bigint[], $10::bigint[])
       ON CONFLICT (account_id, check_id, location_id, due_at) DO NOTHING
       RETURNING ${RUN_COLUMNS}`,
      cols,
    );
    const byKey = new Map(created.map((run) => [keyOf(run), run]));
    return offers.map(({ key }) => {
      const run = byKey.get(keyOf(key));
      // Only the first offer of a key in this batch gets the run it created.
      byKey.delete(keyOf(key));
      return run ?? null;
    });
  }, BATCH);

  const find = batched(async (ids: string[]) => {
    const found = await rows<StoredRun>(
      pool,
      `SELECT ${STORED_COLUMNS} FROM runs WHERE id = ANY($1::text[])`,
      [ids],
    );
    const byId = new Map(found.map((run) => [run.id, run]));
    return ids.map((id) => byId.get(id) ?? null);
  }, BATCH);

  const complete = batched(async (reports: Report[]) => {
    // A report repeated in one batch (same run, same token) is sent once: the first stands for it.
    const sent = new Map<string, Report>();
    for (const r of reports) if (!sent.has(heldBy(r.runId, r.token))) sent.set(heldBy(r.runId, r.token), r);
    const values = [...sent.values()].map((r) => [
      ...resultRow(r.accountId, r.result),
      r.runId,
      r.token,
      r.screenshot ? Buffer.from(r.screenshot) : null,
    ]);
    const done = await rows<{ id: string; token: string }>(pool, COMPLETE, [
      Date.now(),
      ...unnestParams(columnsOf(values, REPORTED_TYPES.length), REPORTED_TYPES),
      origin,
    ]);
    const held = new Set(done.map((run) => heldBy(run.id, run.token)));
    // Only the first report of a run that its token held is stored; any other is late.
    return reports.map((r) => held.delete(heldBy(r.runId, r.token)));
  }, BATCH);

  return {
    /**
     * Without `claim` the run waits: it comes back with token "" and leaseUntil 0
     * (held by no one, claimable at once) and attempt 0.
     */
    offerRun: (key, now, claim, staleAt) => offer({ key, now, claim, staleAt }),

    async requestRun(req, now) {
      const { accountId, checkId, locationId } = req.place;
      // A run asked for that waited too long is skipped, so a new ask is not answered with it.
      await pool.query(
        `UPDATE runs SET completed_at = $4, skipped = '${SKIP_REASONS.unclaimed}'
         WHERE account_id = $1 AND check_id = $2 AND location_id = $3 AND triggered_by <> 'schedule'
           AND completed_at IS NULL AND stale_at <= $4 AND (lease_until IS NULL OR lease_until <= $4)`,
        [accountId, checkId, locationId, now],
      );
      const pending = () =>
        rows<StoredRun>(
          pool,
          `SELECT ${STORED_COLUMNS} FROM runs WHERE account_id = $1 AND check_id = $2 AND location_id = $3
             AND triggered_by <> 'schedule' AND completed_at IS NULL`,
          [accountId, checkId, locationId],
        );
      const id = randomUUID();
      // Keyed at the ask's instant. Nothing inserted: another instance's ask of the place
      // won (answered), or a scheduled run is due that very millisecond (moved by one).
      for (let dueAt = now; ; dueAt++) {
        const [open] = await pending();
        if (open) return { run: open, created: false };
        const made = await rows<StoredRun>(
          pool,
          `INSERT INTO runs (id, account_id, check_id, location_id, due_at, token, lease_until, attempt,
             created_at, stale_at, triggered_by, completed_at, skipped)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) ON CONFLICT DO NOTHING
           RETURNING ${STORED_COLUMNS}`,
          [
            id,
            accountId,
            checkId,
            locationId,
            dueAt,
            req.claim?.token ?? null,
            req.claim ? now + req.claim.leaseMs : null,
            req.claim ? 1 : 0,
            now,
            req.staleAt,
            req.triggeredBy,
            req.skipped === undefined ? null : now,
            req.skipped ?? null,
          ],
        );
        if (made[0]) return { run: made[0], created: true };
      }
    },

    skipStaleRuns: (accountId, locationId, now) =>
      rows<SkippedRun>(
        pool,
        `UPDATE runs SET completed_at = $3, skipped = ${staleReason('$3')}
         WHERE account_id = $1 AND location_id = $2 AND completed_at IS NULL AND due_at <= $3
           AND (lease_until IS NULL OR lease_until <= $3) AND ${staleWhere('$3')}
         RETURNING account_id AS "accountId", check_id AS "checkId", location_id AS "locationId",
           due_at AS "dueAt", triggered_by AS "triggeredBy", skipped AS reason`,
        [accountId, locationId, now],
      ),

    async findRuns(runIds) {
      const found = await Promise.all(runIds.map((id) => find(id)));
      return found.filter((run): run is StoredRun => run !== null);
    },

    async claimRuns(accountId, locationId, token, now, leaseMs, limit) {
      const claimed = await rows<ClaimedRun>(
        pool,
        `WITH picked AS (
           SELECT id AS picked_id FROM runs
           WHERE account_id = $1 AND location_id = $2 AND completed_at IS NULL AND due_at <= $4
             AND (lease_until IS NULL OR lease_until <= $4) AND NOT ${staleWhere('$4')}
           ORDER BY due_at, id LIMIT $6 FOR UPDATE SKIP LOCKED)
         UPDATE runs r SET token = $3, lease_until = $5, attempt = attempt + 1
         FROM picked WHERE r.id = picked.picked_id
         RETURNING ${RUN_COLUMNS}`,
        [accountId, locationId, token, now, now + leaseMs, limit],
      );
      return claimed.sort((a, b) => a.dueAt - b.dueAt || (a.id < b.id ? -1 : 1));
    },

    completeRun: (runId, token, accountId, result, screenshot) =>
      complete({ runId, token, accountId, result, screenshot }),

    findRun: (runId) => find(runId),

    pruneRuns: (before, finishedBefore = before) =>
      changed(
        pool,
        `DELETE FROM runs WHERE due_at < $1
           AND (triggered_by = 'schedule' OR coalesce(completed_at, due_at) < $2)`,
        [before, finishedBefore],
      ),

    async withdrawRuns(places, now) {
      const args = [
        places.map((p) => p.accountId),
        places.map((p) => p.checkId),
        places.map((p) => p.locationId),
        now,
      ];
      const at = `(account_id, check_id, location_id) IN (SELECT * FROM unnest($1::text[], $2::text[], $3::text[]))
           AND completed_at IS NULL AND (lease_until IS NULL OR lease_until <= $4)`;
      // A run asked for is kept, skipped, so its asker reads why it did not run.
      const asked = await changed(
        pool,
        `UPDATE runs SET completed_at = $4, skipped = '${SKIP_REASONS.withdrawn}'
         WHERE ${at} AND triggered_by <> 'schedule'`,
        args,
      );
      return asked + (await changed(pool, `DELETE FROM runs WHERE ${at}`, args));
    },

    releaseRuns: (token, runIds, now) =>
      changed(
        pool,
        `UPDATE runs SET lease_until = $3
         WHERE id = ANY($1::text[]) AND token = $2 AND completed_at IS NULL AND lease_until > $3`,
        [runIds, token, now],
      ),

    async recordRunnerSeen(seen) {
      await pool.query(
        `INSERT INTO runners_seen (account_id, location_id, runner_id, last_seen_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (account_id, location_id, runner_id)
         DO UPDATE SET last_seen_at = greatest(runners_seen.last_seen_at, excluded.last_seen_at)`,
        [seen.accountId, seen.locationId, seen.runnerId, seen.lastSeenAt],
      );
    },

    async instances() {
      // Each instance's listener (pg/changes.ts) is named after it; a killed one's connection ends with it.
      const found = await rows<{ name: string }>(
        pool,
        `SELECT DISTINCT application_name AS name FROM pg_stat_activity
         WHERE datname = current_database() AND starts_with(application_name, $1)`,
        [INSTANCE_PREFIX],
      );
      const all = new Set([origin, ...found.map((r) => r.name.slice(INSTANCE_PREFIX.length))]);
      return { self: origin, all: [...all].sort() };
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
