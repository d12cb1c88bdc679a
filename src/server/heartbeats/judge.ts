// What the service knows of each heartbeat check between its signals, and its
// judgement at a moment (src/domain/heartbeat-rules.ts): the newest end signal (stored
// as the check's ping, read at start and by each watch turn), the runs started and not
// ended, the /log notes, and since when the check is watched as it is now.
// Starts and notes are stored too (storage heartbeatRuns): the signals and each watch turn
// read them afresh (`restore`) and save them when they change (`runs`), so a restart or
// another instance between a /start and its end still times the run.
import { cronLabel, longestGapMs, type CronSchedule } from '../../domain/cron-schedule.js';
import { checkKey } from '../../domain/keys.js';
import { judgeHeartbeat, type HeartbeatJudgement, type HeartbeatPlan } from '../../domain/heartbeat-rules.js';
import { DEFAULT_TIMEZONE } from '../config/heartbeat-keys.js';
import { frequencyToMs, type CheckConfig, type ServiceConfig } from '../config/schema.js';
import type { HeartbeatRuns } from '../storage/results-store.js';

/** The /log notes kept for a run, the newest. */
export const MAX_NOTES = 10;

/** A heartbeat's grace when the check names none. */
export const DEFAULT_GRACE = '30s';

/** A heartbeat check as its status shows it. */
export interface HeartbeatView {
  judgement: HeartbeatJudgement;
  /** `schedule.frequency`: the frequency, or `cron <expr> <tz>`. */
  label: string;
  /** The longest time between due times (a location's runs are stale after 3 of them). */
  periodMs: number;
  /** The oldest run under way (its /start), null when none. */
  runningSince: number | null;
}

type Check = Pick<
  CheckConfig,
  'id' | 'type' | 'frequency' | 'grace' | 'schedule' | 'timezone' | 'maxRunTime' | 'token' | 'enabled'
>;

export const scheduleOf = (check: Check): CronSchedule | undefined =>
  check.schedule === undefined
    ? undefined
    : { expression: check.schedule, timezone: check.timezone ?? DEFAULT_TIMEZONE };

export function planOf(check: Check): HeartbeatPlan {
  const grace = check.grace ?? DEFAULT_GRACE;
  const schedule = scheduleOf(check);
  return {
    ...(schedule ? { schedule } : { periodMs: frequencyToMs(check.frequency) }),
    graceMs: frequencyToMs(grace),
    maxRunMs: frequencyToMs(check.maxRunTime ?? grace),
  };
}

/** What, changed, makes a heartbeat begin again as if it had never pinged (a resume included). */
const fingerprint = (c: Check) =>
  JSON.stringify([c.schedule, c.timezone, c.frequency, c.grace, c.token, c.enabled]);

export interface HeartbeatJudge {
  /** The check's judgement now; undefined for another type. */
  of(accountId: string, check: Check): HeartbeatView | undefined;
  /** The config as scheduled (a paused check disabled): a check changed begins again from now. */
  watch(config: ServiceConfig): void;
  lastEnd(accountId: string, checkId: string): number | null;
  setLastEnd(accountId: string, checkId: string, at: number | null): void;
  start(accountId: string, checkId: string, rid: string | null, at: number): void;
  /** Ends the run of `rid` (or the one started without one): its start, null when none. */
  end(accountId: string, checkId: string, rid: string | null): number | null;
  /** Ends the newest run under way, whatever its `rid` (an end that pairs with no start; signals.ts). */
  endNewest(accountId: string, checkId: string): void;
  /** The run id of the open run started at `at` (null: started without one). */
  ridStartedAt(accountId: string, checkId: string, at: number): string | null;
  /** A /log body, kept for the next run. */
  note(accountId: string, checkId: string, text: string): void;
  takeNotes(accountId: string, checkId: string): string | undefined;
  /** The runs under way and notes, as stored. */
  runs(accountId: string, checkId: string): HeartbeatRuns;
  /** Takes the stored ones in place of what this instance knew. */
  restore(accountId: string, checkId: string, runs: HeartbeatRuns): void;
}

export function createHeartbeatJudge(now: () => number, startedAt = now()): HeartbeatJudge {
  const lastEnds = new Map<string, number | null>();
  const starts = new Map<string, Map<string, number>>();
  const notes = new Map<string, string[]>();
  const watched = new Map<string, { print: string; changedAt: number | null }>();
  let watching = false;
  const oldestStart = (key: string) => {
    const open = [...(starts.get(key)?.values() ?? [])];
    return open.length === 0 ? null : Math.min(...open);
  };
  return {
    of(accountId, check) {
      if (check.type !== 'heartbeat') return undefined;
      const key = checkKey(accountId, check.id);
      const plan = planOf(check);
      const runningSince = oldestStart(key);
      const judgement = judgeHeartbeat(plan, {
        now: now(),
        serviceStartedAt: startedAt,
        changedAt: watched.get(key)?.changedAt ?? null,
        lastEndAt: lastEnds.get(key) ?? null,
        openStartAt: runningSince,
      });
      const periodMs = plan.schedule ? longestGapMs(plan.schedule, now()) : plan.periodMs!;
      const label = plan.schedule ? cronLabel(plan.schedule) : check.frequency;
      return { judgement, label, periodMs, runningSince };
    },
    watch(config) {
      const at = now();
      for (const account of config.accounts)
        for (const check of account.checks) {
          if (check.type !== 'heartbeat') continue;
          const key = checkKey(account.id, check.id);
          const print = fingerprint(check);
          const was = watched.get(key);
          // In the first config watched: since the start; added or changed later: since now.
          if (!was) watched.set(key, { print, changedAt: watching ? at : null });
          else if (was.print !== print) watched.set(key, { print, changedAt: at });
        }
      watching = true;
    },
    lastEnd: (a, c) => lastEnds.get(checkKey(a, c)) ?? null,
    setLastEnd: (a, c, at) => void lastEnds.set(checkKey(a, c), at),
    start(a, c, rid, at) {
      const key = checkKey(a, c);
      const open = starts.get(key) ?? new Map<string, number>();
      open.set(rid ?? '', at);
      starts.set(key, open);
    },
    end(a, c, rid) {
      const open = starts.get(checkKey(a, c));
      const at = open?.get(rid ?? '');
      open?.delete(rid ?? '');
      return at ?? null;
    },
    endNewest(a, c) {
      const open = starts.get(checkKey(a, c));
      const newest = [...(open ?? [])].reduce<[string, number] | undefined>(
        (kept, run) => (kept === undefined || run[1] > kept[1] ? run : kept),
        undefined,
      );
      if (newest) open?.delete(newest[0]);
    },
    ridStartedAt(a, c, at) {
      for (const [rid, started] of starts.get(checkKey(a, c)) ?? []) if (started === at) return rid || null;
      return null;
    },
    note(a, c, text) {
      const key = checkKey(a, c);
      // The newest notes: a job that logs in a loop must not grow a stored row without end.
      notes.set(key, [...(notes.get(key) ?? []), text].slice(-MAX_NOTES));
    },
    takeNotes(a, c) {
      const key = checkKey(a, c);
      const kept = notes.get(key);
      notes.delete(key);
      return kept?.join('\n');
    },
    runs(a, c) {
      const key = checkKey(a, c);
      return { starts: Object.fromEntries(starts.get(key) ?? []), notes: [...(notes.get(key) ?? [])] };
    },
    restore(a, c, runs) {
      const key = checkKey(a, c);
      starts.set(key, new Map(Object.entries(runs.starts)));
      if (runs.notes.length) notes.set(key, [...runs.notes]);
      else notes.delete(key);
    },
  };
}
