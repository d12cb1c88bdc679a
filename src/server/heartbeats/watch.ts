// The service's side of a heartbeat: every few seconds each enabled heartbeat check
// is judged (judge.ts), and a due time missed or a run too long stores one failed run
// (`triggeredBy: schedule`). Each goes through the run queue under its due time (a
// missed run) or its start (a run too long), so it is stored once, whichever instance
// sees it first and across restarts.
import { randomUUID } from 'node:crypto';
import type { Clock } from '../../domain/clock.js';
import { repeat, type Repeating } from '../../domain/repeat.js';
import type { AccountConfig, CheckConfig, ServiceConfig } from '../config/schema.js';
import type { RunResult } from '../runners/types.js';
import type { ClaimedRun, RunQueue, Storage } from '../storage/types.js';
import type { HeartbeatJudge } from './judge.js';
import { heartbeatResult, type RunEnd } from './results.js';

/** How often heartbeats are judged: a missed run is stored at most this late. */
export const WATCH_EVERY_MS = 5_000;
const LEASE_MS = 60_000;

export interface HeartbeatWatch {
  /** One turn: every heartbeat judged now (the timer's, and tests'). */
  turn(): Promise<void>;
  start(): void;
  stop(): Promise<void>;
}

export function createHeartbeatWatch(deps: {
  clock: Clock;
  judge: HeartbeatJudge;
  /** The config as scheduled: a paused check is disabled in it. */
  config: () => ServiceConfig;
  storage: Pick<Storage, 'lastPing' | 'recordPing' | 'heartbeatRuns' | 'saveHeartbeatRuns'> &
    Pick<RunQueue, 'offerRun'>;
  /** Stores a queued run's result and judges it. */
  complete: (held: Pick<ClaimedRun, 'id' | 'token' | 'accountId'>, result: RunResult) => Promise<boolean>;
  log: (line: string) => void;
}): HeartbeatWatch {
  const { clock, judge, storage } = deps;
  const token = `heartbeats-${randomUUID()}`;
  let timer: Repeating | undefined;

  /** One failed run at each location, under `dueAt`; a run already there (another instance's) is left. */
  async function store(
    account: AccountConfig,
    check: CheckConfig,
    key: number,
    end: Omit<RunEnd, 'check' | 'location'>,
  ) {
    for (const location of account.locations.filter((l) => check.locations.includes(l.id))) {
      const place = { accountId: account.id, checkId: check.id, locationId: location.id, dueAt: key };
      const run = await storage.offerRun(place, clock.now(), { token, leaseMs: LEASE_MS });
      if (!run) continue;
      await deps.complete(run, { ...heartbeatResult({ check, location, ...end }), id: run.id });
    }
  }

  async function judgeOne(account: AccountConfig, check: CheckConfig) {
    // Read afresh: another instance may have had the ping.
    judge.setLastEnd(account.id, check.id, await storage.lastPing(account.id, check.id));
    judge.restore(account.id, check.id, await storage.heartbeatRuns(account.id, check.id));
    const { judgement } = judge.of(account.id, check)!;
    const at = clock.now();
    if (judgement.overrun) {
      const { startedAt } = judgement.overrun;
      judge.end(account.id, check.id, judge.ridStartedAt(account.id, check.id, startedAt));
      await storage.saveHeartbeatRuns(account.id, check.id, judge.runs(account.id, check.id));
      // The run too long stands for its due time: no missed run beside it.
      await storage.recordPing(account.id, check.id, at);
      judge.setLastEnd(account.id, check.id, at);
      await store(account, check, startedAt, { end: 'overrun', at, startedAt });
    } else if (judgement.missed) {
      const { dueAt } = judgement.missed;
      await store(account, check, dueAt, { end: 'missed', at, startedAt: null, dueAt });
    }
  }

  async function turn() {
    const config = deps.config();
    judge.watch(config);
    for (const account of config.accounts)
      for (const check of account.checks) {
        if (check.type !== 'heartbeat' || !check.enabled) continue;
        try {
          await judgeOne(account, check);
        } catch (error) {
          deps.log(`heartbeat ${check.id}: cannot judge: ${(error as Error).message}`);
        }
      }
  }

  return {
    turn,
    start() {
      timer ??= repeat(clock, WATCH_EVERY_MS, turn, (error) =>
        deps.log(`heartbeats: ${(error as Error).message}`),
      );
    },
    stop: async () => {
      await timer?.stop();
    },
  };
}
