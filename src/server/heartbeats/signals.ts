// A job's signals at its ping URL (docs/service.md, "Heartbeats"):
//   /v1/heartbeats/<token>            success          /<token>/start   a run began
//   /v1/heartbeats/<token>/fail       failure          /<token>/log     a note for the next run
//   /v1/heartbeats/<token>/<0-255>    the exit code (0 succeeded)
// with `?rid=` pairing a start with its end. Each end stores one run, at each of the
// check's locations; /start and /log store none.
import { z } from 'zod';
import { utf8Tail } from '../../domain/utf8-tail.js';
import type { AccountConfig, CheckConfig } from '../config/schema.js';
import type { CheckResult } from '../../api/schemas/index.js';
import type { Storage } from '../storage/types.js';
import type { HeartbeatJudge } from './judge.js';
import { heartbeatResult, type RunEnd } from './results.js';

export type Signal =
  | { kind: 'success' }
  | { kind: 'fail' }
  | { kind: 'exit'; code: number }
  | { kind: 'start' }
  | { kind: 'log' };

/** The signal a path's last part names (none: success); undefined when it names none. */
export function parseSignal(part: string | undefined): Signal | undefined {
  if (part === undefined || part === '') return { kind: 'success' };
  if (part === 'start' || part === 'fail' || part === 'log') return { kind: part };
  if (!/^(0|[1-9]\d{0,2})$/.test(part)) return undefined;
  const code = Number(part);
  return code <= 255 ? { kind: 'exit', code } : undefined;
}

export const SIGNAL_HELP = 'must be start, fail, log or an exit code from 0 to 255';

/** `rid`: at most 64 letters, digits and dashes (a UUID fits). */
export const PingQuerySchema = z.looseObject({
  rid: z
    .string()
    .regex(/^[A-Za-z0-9-]{1,64}$/, 'must be 1-64 letters, digits or dashes')
    .optional(),
});

export interface HeartbeatSignals {
  receive(
    account: AccountConfig,
    check: CheckConfig,
    signal: Signal,
    /** `body`: the end of what the job posted (http/ping-body.ts) and its whole size. */
    ping: { rid: string | null; body: { tail: Buffer; size: number } | undefined; method: string },
  ): Promise<void>;
}

export function createHeartbeatSignals(deps: {
  now: () => number;
  judge: HeartbeatJudge;
  recordPing: (accountId: string, checkId: string, at: number) => Promise<void>;
  /** The check's runs under way and notes, stored (storage heartbeatRuns / saveHeartbeatRuns). */
  runs: Pick<Storage, 'heartbeatRuns' | 'saveHeartbeatRuns'>;
  /** Stores a result and judges it (status, incidents, alerts). */
  record: (accountId: string, result: CheckResult) => Promise<void>;
  maxStoredBodyBytes: () => number;
}): HeartbeatSignals {
  const { judge } = deps;
  return {
    async receive(account, check, signal, { rid, body, method }) {
      const at = deps.now();
      const text = body ? utf8Tail(body.tail, deps.maxStoredBodyBytes()) : undefined;
      // Read afresh: the /start may have come to another instance, or before a restart.
      judge.restore(account.id, check.id, await deps.runs.heartbeatRuns(account.id, check.id));
      const save = () => deps.runs.saveHeartbeatRuns(account.id, check.id, judge.runs(account.id, check.id));
      if (signal.kind === 'start' || signal.kind === 'log') {
        if (signal.kind === 'start') judge.start(account.id, check.id, rid, at);
        else judge.note(account.id, check.id, text ?? '');
        return save();
      }
      const startedAt = judge.end(account.id, check.id, rid);
      // An end that pairs with no start still says a run is over, as Healthchecks.io reads it:
      // one without a rid (a job that sent its rid on /start only), or a failure whatever its
      // rid. It ends the newest run under way, untimed, rather than page it as too long later.
      const failure = signal.kind === 'fail' || (signal.kind === 'exit' && signal.code !== 0);
      if (startedAt === null && (rid === null || failure)) judge.endNewest(account.id, check.id);
      const log = judge.takeNotes(account.id, check.id);
      await save();
      // The end first, so the status the results move reads the run as come.
      await deps.recordPing(account.id, check.id, at);
      judge.setLastEnd(account.id, check.id, at);
      const end: Pick<RunEnd, 'end' | 'exitCode'> =
        signal.kind === 'exit' ? { end: 'exit', exitCode: signal.code } : { end: signal.kind };
      const output = { text: text ?? '', size: body?.size ?? 0, method };
      for (const location of account.locations.filter((l) => check.locations.includes(l.id)))
        await deps.record(
          account.id,
          heartbeatResult({ check, location, at, startedAt, rid, output, log, ...end }),
        );
    },
  };
}
