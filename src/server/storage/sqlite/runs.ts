// The shared run queue (types.ts RunQueue) in SQLite. One process writes the
// file at a time (SQLite serialises writers), so a claim is an IMMEDIATE
// transaction: select what is free, then take it; two claimers never get the
// same run. The unique (account, check, location, due time) key makes an offer
// happen once; completed_at and the token make a result be stored once.
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { CheckResult } from '../../../api/schemas.js';
import { batched } from '../batched.js';
import type { Promised, Sync } from '../promised.js';
import type { ClaimedRun, RunKey, RunPlace, RunQueue, RunnerSeen, Storage, StoredRun } from '../types.js';

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
}

const COLUMNS = `id, account_id AS accountId, check_id AS checkId, location_id AS locationId,
  due_at AS dueAt, token, lease_until AS leaseUntil, attempt, completed_at AS completedAt`;

const GATHER_MS = 20;

/** What completing a run stores: the result stores' own writes, run inside its transaction. */
export type ResultWrites = Pick<Sync<Storage>, 'insertResult' | 'insertScreenshot'>;

/** The writes answer promises: offers and reports wait for others to commit with (below). */
export type SqliteRunStore = Omit<Sync<RunQueue>, Written | Pruned> & Pick<RunQueue, Written>;
type Written = 'offerRun' | 'completeRun' | 'claimRuns' | 'recordRunnerSeen' | 'withdrawRuns' | 'releaseRuns';
/** Pruned in chunks where the writes are made (sqlite-prune.ts), by the storage itself. */
type Pruned = 'pruneRuns';

export interface Offer {
  key: RunKey;
  now: number;
  holder: { token: string; leaseMs: number } | undefined;
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
}

export function createRunWrites(db: Database.Database, writes: ResultWrites): RunWrites {
  const insert = db.prepare(
    `INSERT INTO runs (id, account_id, check_id, location_id, due_at, token, lease_until, attempt)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
  );
  // Due, and waiting (never claimed) or abandoned (its lease ran out), oldest due first.
  const free = db.prepare(
    `SELECT ${COLUMNS} FROM runs
     WHERE account_id = @accountId AND location_id = @locationId AND completed_at IS NULL AND due_at <= @now
       AND (lease_until IS NULL OR lease_until <= @now)
     ORDER BY due_at LIMIT @limit`,
  );
  const take = db.prepare('UPDATE runs SET token = ?, lease_until = ?, attempt = attempt + 1 WHERE id = ?');
  const finish = db.prepare(
    'UPDATE runs SET completed_at = ? WHERE id = ? AND token = ? AND completed_at IS NULL',
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
  const withdraw = db.transaction((places: RunPlace[], now: number) =>
    places.reduce((n, p) => n + unheld.run(p.accountId, p.checkId, p.locationId, now).changes, 0),
  );

  const releaseOne = db.prepare(
    'UPDATE runs SET lease_until = ? WHERE id = ? AND token = ? AND completed_at IS NULL AND lease_until > ?',
  );
  const release = db.transaction((token: string, runIds: readonly string[], now: number) =>
    runIds.reduce((n, id) => n + releaseOne.run(now, id, token, now).changes, 0),
  );

  const claim = db.transaction(
    (accountId: string, locationId: string, token: string, now: number, leaseMs: number, limit: number) => {
      const rows = free.all({ accountId, locationId, now, limit }) as RunRow[];
      return rows.map((row): ClaimedRun => {
        take.run(token, now + leaseMs, row.id);
        return { ...keyOf(row), id: row.id, token, leaseUntil: now + leaseMs, attempt: row.attempt + 1 };
      });
    },
  );
  function completeOne({ runId, token, accountId, result, png }: Report): boolean {
    if (finish.run(Date.now(), runId, token).changes === 0) return false;
    writes.insertResult(accountId, result);
    if (png) writes.insertScreenshot(accountId, result, png);
    return true;
  }

  function offerOne({ key, now, holder }: Offer): ClaimedRun | null {
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
    ).changes;
    if (made === 0) return null;
    return { ...key, id, token: holder?.token ?? '', leaseUntil: leaseUntil ?? 0, attempt: holder ? 1 : 0 };
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
  };
}

/** The run queue over `db`; its writes made by `writes` (on this thread or the writer's). */
export function createRunStore(db: Database.Database, writes: Promised<RunWrites>): SqliteRunStore {
  const byId = db.prepare(`SELECT ${COLUMNS} FROM runs WHERE id = ?`);
  const allSeen = db.prepare(
    `SELECT account_id AS accountId, location_id AS locationId, runner_id AS runnerId,
       last_seen_at AS lastSeenAt FROM runners_seen`,
  );

  // Each offer and each report is a commit, and a commit writes every page it
  // touched to the WAL: at 10,000 checks, 330 commits a second were the largest
  // share of the main thread. Offers and reports wait up to GATHER_MS for others
  // to commit with (batched.ts); one that fails is tried again alone. A run
  // starts, or its result is stored, that much later; what it measures is not moved.
  const together = { max: 500, inFlight: 1, gatherMs: GATHER_MS };
  const offer = batched(writes.offer, together);
  const complete = batched(writes.complete, together);

  return {
    offerRun: (key, now, holder) => offer({ key, now, holder }),
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
});
