// The remote runners' claim protocol (docs/runners.md), apart from HTTP: a runner's long
// poll claims the due runs of its location, and its results are completed through
// the queue by the holder of the claim only. http/runner-routes.ts translates.
import type { Clock } from '../../domain/clock.js';
import type { CheckResult } from '../../api/schemas/index.js';
import type { AccountConfig, CheckConfig } from '../config/schema.js';
import type { RunResult } from '../runners/types.js';
import type { ClaimedRun, RunQueue, SkippedRun } from '../storage/types.js';
import { claimToken, parseClaimToken } from './claim-token.js';
import { CLAIM_GATHER_MS, type RunnerHub, type RunnerPlace } from './runner-hub.js';

export interface ClaimsDeps {
  hub: Pick<RunnerHub, 'seen' | 'wait' | 'drained' | 'mayWaitFirst' | 'missedMark' | 'missedSince'>;
  queue: Pick<RunQueue, 'claimRuns' | 'findRun' | 'releaseRuns' | 'skipStaleRuns'>;
  /** Runs a claim found too late to start (skipStaleRuns): counted where skipped runs are (scheduler). */
  skipped?: ((runs: readonly SkippedRun[]) => void) | undefined;
  /** Stores a run's result through the queue (once) and moves its status; false when the run is not the token's. */
  complete(run: Pick<ClaimedRun, 'id' | 'token' | 'accountId'>, result: RunResult): Promise<boolean>;
  /** The account's check by id, indexed (accounts.ts): every claimed and reported run looks its check up. */
  check(account: AccountConfig, checkId: string): CheckConfig | undefined;
  /** How long a runner holds the runs it claims before they are given to another. */
  leaseMs: number;
  clock: Clock;
  /** Aborts when the service stops: long polls answer at once. */
  closing: AbortSignal;
}

export interface Poll {
  runnerId: string;
  /** The most runs to claim. */
  max: number;
  /** How long to wait for a run to fall due when none is. */
  waitMs: number;
}

/** A claimed run, with the check it runs. */
export interface Claimed {
  run: ClaimedRun;
  check: CheckConfig;
}

/** A runner's report of one run it claimed. */
export interface Report {
  runId: string;
  claimToken: string;
  result: CheckResult;
  screenshot?: Buffer;
}

/** What became of a report: stored, or why not. */
export type Completion =
  | { kind: 'stored' }
  /** The run is unknown, or not of this location, or was never claimed. */
  | { kind: 'unknown' }
  /** The result is of another check or location than its run. */
  | { kind: 'mismatch'; run: Pick<ClaimedRun, 'checkId' | 'locationId'> }
  /** The run's check left the config while the run was out: nothing to store. */
  | { kind: 'gone'; run: Pick<ClaimedRun, 'checkId' | 'locationId'> }
  /** The run is no longer the token's: given again, or done. */
  | { kind: 'late' };

export interface Claims {
  /**
   * The runs of the place claimed by one long poll: at once when some are due, else
   * when one falls due within `waitMs` (none then). `gone` aborts when its runner
   * leaves: it is given none, and those claimed as it left are given back.
   */
  poll(place: RunnerPlace, poll: Poll, gone: AbortSignal): Promise<Claimed[]>;
  /** Stores a reported result if its token still holds its run. */
  complete(place: RunnerPlace, report: Report): Promise<Completion>;
  /** A runner of the place is in touch, named by the claim token it sent. */
  seenWith(place: RunnerPlace, token: string): void;
}

// Between looks at the queue in a long poll: runs whose lease ran out are noticed this soon.
const POLL_STEP_MS = 1_000;

export function createClaims(deps: ClaimsDeps): Claims {
  const { hub, queue, clock } = deps;
  const now = clock.now;
  const delay = (ms: number) => new Promise<void>((resolve) => clock.setTimeout(resolve, ms));

  async function poll({ account, location }: RunnerPlace, ask: Poll, left: AbortSignal) {
    const gone = AbortSignal.any([deps.closing, left]);
    const deadline = now() + ask.waitMs;
    hub.seen(account.id, location.id, ask.runnerId);
    try {
      // Back just after a claim here took every run then due, and none has fallen due here
      // since that woke no one: the poll waits before it claims (runner-hub.ts mayWaitFirst).
      let runs: ClaimedRun[] = [];
      let claim = ask.waitMs <= CLAIM_GATHER_MS || !hub.mayWaitFirst(account.id, location.id);
      /** Where the wakes stood as this poll last looked: a run due since that woke no one (it was claiming) is its. */
      let mark = hub.missedMark(account.id, location.id);
      for (; ; claim = true) {
        if (claim) {
          const token = claimToken(ask.runnerId);
          mark = hub.missedMark(account.id, location.id);
          const looked = now();
          // A runner back after a silence runs only the newest due run of each check (docs/actions.md).
          const stale = await queue.skipStaleRuns(account.id, location.id, looked);
          if (stale.length > 0) deps.skipped?.(stale);
          runs = await queue.claimRuns(account.id, location.id, token, looked, deps.leaseMs, ask.max);
          if (runs.length < ask.max) hub.drained(account.id, location.id, looked);
          // Its runner left while the claim was being made: the runs go back at once, not
          // after their lease, to the next poll (this runner's restarted, or another's).
          if (gone.aborted && runs.length > 0) {
            await giveBack(token, runs);
            return [];
          }
        }
        const claimed = runs.flatMap((run) => withCheck(account, run));
        if (claimed.length > 0 || now() >= deadline || gone.aborted) return claimed;
        if (hub.missedSince(account.id, location.id, mark)) continue;
        await hub.wait(account.id, location.id, Math.min(POLL_STEP_MS, deadline - now()), gone);
        // Woken for one run: the runs offered in the next moment go in the same claim.
        if (!gone.aborted) await delay(Math.min(CLAIM_GATHER_MS, Math.max(0, deadline - now())));
        // A runner gone (stopped, cut off) or a service stopping: a claim now would hold its
        // runs, unrun, until their lease ran out.
        if (gone.aborted) return [];
      }
    } finally {
      hub.seen(account.id, location.id, ask.runnerId);
    }
  }

  function withCheck(account: AccountConfig, run: ClaimedRun): Claimed[] {
    const check = deps.check(account, run.checkId);
    // A check removed since it was offered: nothing to run; its run lapses with its lease.
    return check ? [{ run, check }] : [];
  }

  async function giveBack(token: string, claimed: ClaimedRun[]) {
    try {
      await queue.releaseRuns(
        token,
        claimed.map((run) => run.id),
        now(),
      );
    } catch (error) {
      console.error(
        `checkwall: cannot give back ${claimed.length} runs claimed for a runner that left; they go again when their lease ends`,
        error,
      );
    }
  }

  async function complete({ account, location }: RunnerPlace, report: Report): Promise<Completion> {
    const run = await queue.findRun(report.runId);
    if (!run || run.accountId !== account.id || run.locationId !== location.id || run.token === null)
      return { kind: 'unknown' };
    const check = deps.check(account, run.checkId);
    const { result } = report;
    if (result.checkId !== run.checkId || result.location.id !== run.locationId)
      return { kind: 'mismatch', run };
    if (!check) return { kind: 'gone', run };
    if (run.token !== report.claimToken || run.completedAt !== null) return { kind: 'late' };
    // The service names what it stores: the run's id (one result per run), its check and location.
    // A runner is another machine: its check's runbook and links are the service's to add
    // as results are served (http/routes.ts), and it has a screenshot only when it sent one.
    const { runbook: _runbook, links: _links, hasScreenshot, ...measured } = result;
    const stored: CheckResult = {
      ...measured,
      ...onServiceClock(result, run.dueAt, now()),
      ...(hasScreenshot === undefined ? {} : { hasScreenshot: report.screenshot !== undefined }),
      id: run.id,
      checkName: check.name,
      checkType: check.type,
      location: { id: location.id, name: location.name, region: location.region },
      triggeredBy: run.triggeredBy,
    };
    const held = { id: run.id, token: report.claimToken, accountId: account.id };
    const { screenshot } = report;
    const ok = await deps.complete(held, { ...stored, ...(screenshot ? { screenshot } : {}) });
    return ok ? { kind: 'stored' } : { kind: 'late' };
  }

  return {
    poll,
    complete,
    seenWith: (place, token) =>
      hub.seen(place.account.id, place.location.id, parseClaimToken(token)?.runnerId ?? 'unnamed'),
  };
}

/**
 * A runner's clock is not the service's (a host without NTP can be hours off): a result
 * dated in the future kept its location "in touch" long after its runner went, and one
 * dated in the past sorted among older runs. On the service's clock the run started once
 * due (a claim takes no run before; not its claim, which is the newest one when a run
 * outlasted its lease) and ended before its report: a result dated outside that is moved
 * into it, its duration kept.
 */
function onServiceClock(result: CheckResult, dueAt: number, reportedAt: number) {
  const started = Date.parse(result.startedAt);
  const at = Math.min(Math.max(started, dueAt), Math.max(dueAt, reportedAt - result.duration));
  if (at === started) return {};
  return { startedAt: new Date(at).toISOString(), finishedAt: new Date(at + result.duration).toISOString() };
}
