// The shared run queue's contract (docs/runners.md), part of Storage (types.ts).
import type { CheckResult, Trigger } from '../../api/schemas/index.js';

/**
 * docs/runners.md: the shared queue of scheduled runs. A run is one check × location ×
 * due time; every service instance and every remote runner takes its work here,
 * so the database decides who runs what (a unique key and row locks / leases),
 * never a protocol of our own. Each scheduled run is stored at most once.
 */
export interface RunKey {
  accountId: string;
  checkId: string;
  locationId: string;
  /** Epoch ms the schedule plan gives this run (schedule/plan.ts): the same on every instance. */
  dueAt: number;
}

/** A check at a location: where a run goes, whatever its due time. */
export type RunPlace = Omit<RunKey, 'dueAt'>;

export interface ClaimedRun extends RunKey {
  id: string;
  /** Whoever holds the run (an instance's or a runner's claim); a report must carry it. */
  token: string;
  leaseUntil: number;
  /** 1 the first time it is claimed; more when a lease ran out and it was given again. */
  attempt: number;
  /** `schedule` for a scheduled run; `api` or `manual` for a run asked for (POST /v1/check-runs). */
  triggeredBy: Trigger;
}

/** A run as stored, whoever holds it (findRun): what a runner's report is checked against. */
export interface StoredRun extends RunKey {
  id: string;
  /** Null while it waits for a runner. */
  token: string | null;
  leaseUntil: number | null;
  attempt: number;
  completedAt: number | null;
  triggeredBy: Trigger;
  /** Why it was not run (completed without a result); null when it ran or waits. */
  skipped: string | null;
  /** Whether its stored result succeeded; null until it is done (or when skipped). */
  ok: boolean | null;
}

/** A run marked skipped by skipStaleRuns: counted where the service counts skipped runs. */
export interface SkippedRun extends RunKey {
  triggeredBy: Trigger;
  reason: string;
}

/** Why a run never started, as GET /v1/check-runs and the run accounting say it. */
export const SKIP_REASONS = {
  stale: 'it could not start within half its period of its due time',
  superseded: 'a newer run of the check at this location was due',
  unclaimed: 'no runner of its location took it in time',
  withdrawn: 'the check was removed, paused or left the location',
  noRunner: 'no runner is connected for its remote location',
} as const;

/** What requestRun makes: a run asked for now, or the one still pending at its place. */
export interface RunRequest {
  place: RunPlace;
  triggeredBy: Exclude<Trigger, 'schedule'>;
  /** Held at once by the caller (a location the service runs itself). */
  claim?: { token: string; leaseMs: number } | undefined;
  /** Past it, a run still waiting is skipped (SKIP_REASONS.unclaimed). */
  staleAt: number;
  /** Made skipped at once, with this reason (no runner connected). */
  skipped?: string | undefined;
}

export interface RunnerSeen {
  accountId: string;
  locationId: string;
  runnerId: string;
  lastSeenAt: number;
}

export interface RunQueue {
  /**
   * Records a due run, once: whoever calls first for a key creates it. With `claim`
   * the caller also holds it at once (a location the service runs itself); without,
   * it waits for a runner of its location. Resolves with the run when this call
   * created it, null when it already existed (another instance has it).
   */
  offerRun(
    key: RunKey,
    now: number,
    claim?: { token: string; leaseMs: number },
    /** Past it, the run is not started late: skipStaleRuns marks it skipped. Absent: never. */
    staleAt?: number,
  ): Promise<ClaimedRun | null>;
  /**
   * A run asked for now at one place (docs/actions.md): one pending (queued or running) such
   * run per check x location, so asking again answers the pending one (`created`
   * false). Stored with its trigger; its result is an ordinary result.
   */
  requestRun(request: RunRequest, now: number): Promise<{ run: StoredRun; created: boolean }>;
  /**
   * Marks skipped the runs of the location no one holds that must not start late: a
   * scheduled run past its `staleAt`, or older than another due scheduled run of its
   * check x location (only the newest runs), and a run asked for that waited past its
   * `staleAt`. Returns them, for the accounting. claimRuns never takes such a run.
   */
  skipStaleRuns(accountId: string, locationId: string, now: number): Promise<SkippedRun[]>;
  /** Several runs by id (unknown ones left out). */
  findRuns(runIds: readonly string[]): Promise<StoredRun[]>;
  /**
   * Claims up to `limit` runs of the account's location that are due (an offer may come
   * ahead of its run's due time) and wait, or whose lease ran out (a killed runner or
   * instance), oldest due first, for `token` until now + leaseMs. A run skipStaleRuns
   * would skip (stale, or a scheduled one with a newer due run at its place) is not taken.
   * Two callers at once never get the same run (FOR UPDATE SKIP LOCKED, or a
   * transaction that SQLite serialises).
   */
  claimRuns(
    accountId: string,
    locationId: string,
    token: string,
    now: number,
    leaseMs: number,
    limit: number,
  ): Promise<ClaimedRun[]>;
  /**
   * Stores the result (and its screenshot) of a run, in one transaction, only if
   * `token` still holds it and it is not complete; false, and nothing stored, for a
   * late report of a run that was given to someone else.
   */
  completeRun(
    runId: string,
    token: string,
    accountId: string,
    result: CheckResult,
    screenshot?: Uint8Array,
  ): Promise<boolean>;
  /**
   * Deletes the runs of these check x location pairs that no one holds (waiting for a
   * runner, or abandoned): their check was disabled or removed, or left the location, so
   * what was offered ahead of it must not run. Runs in flight are left to finish.
   * A run asked for is not deleted but marked skipped (SKIP_REASONS.withdrawn): its
   * asker reads why. Returns how many went.
   */
  withdrawRuns(places: RunPlace[], now: number): Promise<number>;
  /**
   * Gives back these runs of a claim (its `token`) that are not complete and still its:
   * their lease ends now, so the next claim takes them (a runner that left while its
   * claim was being made). Returns how many.
   */
  releaseRuns(token: string, runIds: readonly string[], now: number): Promise<number>;
  /** One run by id, complete or not; null when there is none (never given, or pruned). */
  findRun(runId: string): Promise<StoredRun | null>;
  /**
   * Deletes scheduled runs due before the cut-off, complete or abandoned (results stay
   * in results): the queue only needs them while a late offer or report may come. Runs
   * asked for go once finished before `finishedBefore` (they are read back by id for a
   * day), or when due before it and never finished. Returns how many went.
   */
  pruneRuns(before: number, finishedBefore?: number): Promise<number>;
  recordRunnerSeen(seen: RunnerSeen): Promise<void>;
  /** Every runner seen, newest contact per runner. */
  runnersSeen(): Promise<RunnerSeen[]>;
  /**
   * The service instances sharing this queue now (PostgreSQL: those connected to the
   * database), sorted, with this one (`self`) always among them.
   */
  instances(): Promise<{ self: string; all: string[] }>;
}
