// The shared run queue (types.ts RunQueue) in SQLite. One process writes the
// file at a time (SQLite serialises writers), so a claim is an IMMEDIATE
// transaction: select what is free, then take it; two claimers never get the
// same run. The unique (account, check, location, due time) key makes an offer
// happen once; completed_at and the token make a result be stored once.
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { CheckResult } from '../../../api/schemas/index.js';
import { batched } from '../batched.js';
import type { Promised, Sync } from '../promised.js';
import { SKIP_REASONS } from '../run-queue.js';
import { staleReason, staleWhere } from '../stale-sql.js';
import { limited } from './limited.js';
import type {
  ClaimedRun,
  RunKey,
  RunPlace,
  RunQueue,
  RunRequest,
  RunnerSeen,
  SkippedRun,
  Storage,
  StoredRun,
} from '../types.js';

interface RunRow {
  id: string;
  accountId: string;
  checkId: string;
  locationId: string;
  dueAt: number;
  token: string | null;
  leaseUntil: number | null;
  attempt: number;
  completedAt: number | null;
  triggeredBy: StoredRun['triggeredBy'];
  skipped: string | null;
  ok: number | null;
}

const COLUMNS = `id, account_id AS accountId, check_id AS checkId, location_id AS locationId,
  due_at AS dueAt, token, lease_until AS leaseUntil, attempt, completed_at AS completedAt,
  triggered_by AS triggeredBy, skipped, ok`;

const STALE = staleWhere('@now');
const STALE_REASON = staleReason('@now');
// Due, and waiting (never claimed) or abandoned (its lease ran out), and not stale, oldest due first.
const FREE = (limit: string) => `SELECT ${COLUMNS} FROM runs
  WHERE account_id = @accountId AND location_id = @locationId AND completed_at IS NULL AND due_at <= @now
    AND (lease_until IS NULL OR lease_until <= @now) AND NOT ${STALE}
  ORDER BY due_at LIMIT ${limit}`;

/** What completing a run stores: the result stores' own writes, run inside its transaction. */
export type ResultWrites = Pick<Sync<Storage>, 'insertResult' | 'insertScreenshot'>;

/** The writes answer promises: offers and reports wait for others to commit with (below). */
export type SqliteRunStore = Omit<Sync<RunQueue>, Written | Pruned> & Pick<RunQueue, Written>;
type Written =
  | 'offerRun'
  | 'completeRun'
  | 'claimRuns'
  | 'recordRunnerSeen'
  | 'withdrawRuns'
  | 'releaseRuns'
  | 'requestRun'
  | 'skipStaleRuns';
/** Pruned in chunks where the writes are made (sqlite/prune.ts), by the storage itself. */
type Pruned = 'pruneRuns';

export interface Offer {
  key: RunKey;
  now: number;
  holder: { token: string; leaseMs: number } | undefined;
  staleAt?: number | undefined;
}

export interface Report {
  runId: string;
  token: string;
  accountId: string;
  result: CheckResult;
  png: Uint8Array | undefined;
}

/**
 * The run queue's writes, each one transaction: made on the service's thread, or
 * on the writer thread (sqlite-writer.ts), which runs this same code over a
 * connection of its own.
 */
export interface RunWrites {
  offer(offers: Offer[]): Array<ClaimedRun | null>;
  complete(reports: Report[]): boolean[];
  claim(...args: Parameters<RunQueue['claimRuns']>): ClaimedRun[];
  seen(seen: RunnerSeen): void;
  withdraw(...args: Parameters<RunQueue['withdrawRuns']>): number;
  release(...args: Parameters<RunQueue['releaseRuns']>): number;
  request(request: RunRequest, now: number): { run: StoredRun; created: boolean };
  skipStale(...args: Parameters<RunQueue['skipStaleRuns']>): SkippedRun[];
}

export function createRunWrites(db: Database.Database, writes: ResultWrites): RunWrites {
  const insert = db.prepare(
    `INSERT INTO runs (id, account_id, check_id, location_id, due_at, token, lease_until, attempt, stale_at,
       triggered_by, completed_at, skipped)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
  );
  const free = limited(db, FREE);
  const stale = db.prepare(
    `UPDATE runs SET completed_at = @now, skipped = ${STALE_REASON}
     WHERE account_id = @accountId AND location_id = @locationId AND completed_at IS NULL AND due_at <= @now
       AND (lease_until IS NULL OR lease_until <= @now) AND ${STALE}
     RETURNING account_id AS accountId, check_id AS checkId, location_id AS locationId, due_at AS dueAt,
       triggered_by AS triggeredBy, skipped AS reason`,
  );
  // A run asked for at a place that waited too long, so a new ask is not answered with it.
  const lapsed = db.prepare(
    `UPDATE runs SET completed_at = @now, skipped = '${SKIP_REASONS.unclaimed}'
     WHERE account_id = @accountId AND check_id = @checkId AND location_id = @locationId
       AND triggered_by <> 'schedule' AND completed_at IS NULL AND stale_at <= @now
       AND (lease_until IS NULL OR lease_until <= @now)`,
  );
  const pendingAsked = db.prepare(
    `SELECT ${COLUMNS} FROM runs WHERE account_id = ? AND check_id = ? AND location_id = ?
       AND triggered_by <> 'schedule' AND completed_at IS NULL`,
  );
  const byIdHere = db.prepare(`SELECT ${COLUMNS} FROM runs WHERE id = ?`);
  const take = db.prepare('UPDATE runs SET token = ?, lease_until = ?, attempt = attempt + 1 WHERE id = ?');
  const finish = db.prepare(
    'UPDATE runs SET completed_at = ?, ok = ? WHERE id = ? AND token = ? AND completed_at IS NULL',
  );
  const seen = db.prepare(
    `INSERT INTO runners_seen (account_id, location_id, runner_id, last_seen_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (account_id, location_id, runner_id)
     DO UPDATE SET last_seen_at = max(last_seen_at, excluded.last_seen_at)`,
  );

  // The runs a claim could take (free, above), whatever their due time.
  const unheld = db.prepare(
    `DELETE FROM runs WHERE account_id = ? AND check_id = ? AND location_id = ? AND completed_at IS NULL
       AND (lease_until IS NULL OR lease_until <= ?)`,
  );
  // A run asked for is kept, skipped, so its asker reads why it did not run.
  const unheldAsked = db.prepare(
    `UPDATE runs SET completed_at = ?, skipped = '${SKIP_REASONS.withdrawn}'
     WHERE account_id = ? AND check_id = ? AND location_id = ? AND completed_at IS NULL
       AND triggered_by <> 'schedule' AND (lease_until IS NULL OR lease_until <= ?)`,
  );
  const withdraw = db.transaction((places: RunPlace[], now: number) =>
    places.reduce(
      (n, p) =>
        n +
        unheldAsked.run(now, p.accountId, p.checkId, p.locationId, now).changes +
        unheld.run(p.accountId, p.checkId, p.locationId, now).changes,
      0,
    ),
  );

  const request = db.transaction((req: RunRequest, now: number) => {
    const { accountId, checkId, locationId } = req.place;
    lapsed.run({ accountId, checkId, locationId, now });
    const pending = pendingAsked.get(accountId, checkId, locationId) as RunRow | undefined;
    if (pending) return { run: storedRun(pending), created: false };
    const id = randomUUID();
    const skipped = req.skipped ?? null;
    // Keyed at the ask's instant; a scheduled run due that very millisecond moves it by one.
    for (let dueAt = now; ; dueAt++) {
      const made = insert.run(
        id,
        accountId,
        checkId,
        locationId,
        dueAt,
        req.claim?.token ?? null,
        req.claim ? now + req.claim.leaseMs : null,
        req.claim ? 1 : 0,
        req.staleAt,
        req.triggeredBy,
        skipped === null ? null : now,
        skipped,
      ).changes;
      if (made > 0) return { run: storedRun(byIdHere.get(id) as RunRow), created: true };
    }
  });

  const releaseOne = db.prepare(
    'UPDATE runs SET lease_until = ? WHERE id = ? AND token = ? AND completed_at IS NULL AND lease_until > ?',
  );
  const release = db.transaction((token: string, runIds: readonly string[], now: number) =>
    runIds.reduce((n, id) => n + releaseOne.run(now, id, token, now).changes, 0),
  );

  const claim = db.transaction(
    (accountId: string, locationId: string, token: string, now: number, leaseMs: number, limit: number) => {
      const rows = free.all(limit, { accountId, locationId, now }) as RunRow[];
      return rows.map((row): ClaimedRun => {
        take.run(token, now + leaseMs, row.id);
        return {
          ...keyOf(row),
          id: row.id,
          token,
          leaseUntil: now + leaseMs,
          attempt: row.attempt + 1,
          triggeredBy: row.triggeredBy,
        };
      });
    },
  );
  function completeOne({ runId, token, accountId, result, png }: Report): boolean {
    if (finish.run(Date.now(), result.status === 'success' ? 1 : 0, runId, token).changes === 0) return false;
    writes.insertResult(accountId, result);
    if (png) writes.insertScreenshot(accountId, result, png);
    return true;
  }

  function offerOne({ key, now, holder, staleAt }: Offer): ClaimedRun | null {
    const id = randomUUID();
    const leaseUntil = holder ? now + holder.leaseMs : null;
    const made = insert.run(
      id,
      key.accountId,
      key.checkId,
      key.locationId,
      key.dueAt,
      holder?.token ?? null,
      leaseUntil,
      holder ? 1 : 0,
      staleAt ?? null,
      'schedule',
      null,
      null,
    ).changes;
    if (made === 0) return null;
    return {
      ...key,
      id,
      token: holder?.token ?? '',
      leaseUntil: leaseUntil ?? 0,
      attempt: holder ? 1 : 0,
      triggeredBy: 'schedule',
    };
  }
  const offerMany = db.transaction((offers: Offer[]) => offers.map(offerOne));
  const completeMany = db.transaction((reports: Report[]) => reports.map(completeOne));
  return {
    offer: (offers) => offerMany.immediate(offers),
    complete: (reports) => completeMany.immediate(reports),
    claim: (...args) => claim.immediate(...args),
    seen: (s) => void seen.run(s.accountId, s.locationId, s.runnerId, s.lastSeenAt),
    withdraw: (places, now) => withdraw.immediate(places, now),
    release: (token, runIds, now) => release.immediate(token, runIds, now),
    request: (req, now) => request.immediate(req, now),
    skipStale: (accountId, locationId, now) => stale.all({ accountId, locationId, now }) as SkippedRun[],
  };
}

/** The run queue over `db`; its writes made by `writes` (on this thread or the writer's). */
export function createRunStore(db: Database.Database, writes: Promised<RunWrites>): SqliteRunStore {
  const byId = db.prepare(`SELECT ${COLUMNS} FROM runs WHERE id = ?`);
  const byIds = db.prepare(`SELECT ${COLUMNS} FROM runs WHERE id IN (SELECT value FROM json_each(?))`);
  const allSeen = db.prepare(
    `SELECT account_id AS accountId, location_id AS locationId, runner_id AS runnerId,
       last_seen_at AS lastSeenAt FROM runners_seen`,
  );

  // Each offer and each report is a commit, and a commit writes every page it
  // touched to the WAL: a commit per offer and per report was the largest share of
  // the main thread (BENCHMARKS.md, bench:service honesty, "the main thread's long
  // tasks"). Offers and reports made in one turn of the event loop commit together
  // (batched.ts): a tick's offers come from one timer (slots.ts) and a run worker's
  // results in one message (run-worker.ts). One that fails is tried again alone.
  // Offers and reports used to wait 20 ms for others, a wake-up of their own each
  // (BENCHMARKS.md, "bench:threads, one wake-up a tick").
  const together = { max: 500, inFlight: 1, endOfTurn: true };
  const offer = batched(writes.offer, together);
  const complete = batched(writes.complete, together);

  return {
    offerRun: (key, now, holder, staleAt) => offer({ key, now, holder, staleAt }),
    requestRun: writes.request,
    skipStaleRuns: writes.skipStale,
    findRuns(runIds) {
      const found = byIds.all(JSON.stringify(runIds)) as RunRow[];
      return found.map(storedRun);
    },
    claimRuns: writes.claim,
    completeRun: (runId, token, accountId, result, png) => complete({ runId, token, accountId, result, png }),
    findRun(runId) {
      const row = byId.get(runId) as RunRow | undefined;
      return row ? storedRun(row) : null;
    },
    recordRunnerSeen: writes.seen,
    withdrawRuns: writes.withdraw,
    releaseRuns: writes.release,
    runnersSeen: () => allSeen.all() as RunnerSeen[],
    // SQLite cannot say who else has the file open: each instance offers every run as it falls due.
    instances: () => ({ self: 'sqlite', all: ['sqlite'] }),
  };
}

const keyOf = (row: RunRow): RunKey => ({
  accountId: row.accountId,
  checkId: row.checkId,
  locationId: row.locationId,
  dueAt: row.dueAt,
});

const storedRun = (row: RunRow): StoredRun => ({
  ...keyOf(row),
  id: row.id,
  token: row.token,
  leaseUntil: row.leaseUntil,
  attempt: row.attempt,
  completedAt: row.completedAt,
  triggeredBy: row.triggeredBy,
  skipped: row.skipped,
  ok: row.ok === null ? null : row.ok === 1,
});
