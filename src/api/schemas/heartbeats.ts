// DECISION (docs/service.md, "Heartbeats"): what a heartbeat check's status and its
// runs carry beyond the spec's fields. Extensions: other services leave them out.
import { z } from 'zod';
import { TimestampSchema } from './common.js';

/** How a heartbeat run ended: a signal of the job, or the service's judgement of its silence. */
export const HEARTBEAT_ENDS = ['success', 'fail', 'exit', 'missed', 'overrun'] as const;

/** On a heartbeat check's result: how its run ended, its exit code and /start. */
export const HeartbeatRunSchema = z.looseObject({
  end: z.enum(HEARTBEAT_ENDS),
  /** The job's exit code (`/<0-255>`); null when it said none (a plain ping, /fail, a missed run). */
  exitCode: z.number().int().min(0).max(255).nullable(),
  /** The run's /start; null without one (its duration is then 0). */
  startedAt: TimestampSchema.nullable(),
  /** The run id the job sent (`rid`), null when none. */
  rid: z.string().nullable(),
  /** The bodies of /log pings since the last run, oldest first, cut to maxStoredBodyBytes. */
  log: z.string().optional(),
});
export type HeartbeatRun = z.infer<typeof HeartbeatRunSchema>;

/** On a heartbeat check's status. */
export const HEARTBEAT_STATUS_FIELDS = {
  /** The next due time of a ping (late after it plus grace); null when none is expected. */
  nextPingDue: TimestampSchema.nullable().optional(),
  /** Set while the first ping is awaited (the status is unknown until `dueBy`). */
  awaitingFirstPing: z.looseObject({ dueBy: TimestampSchema }).nullable().optional(),
  /** The /start of a run still going; null when none is. */
  runningSince: TimestampSchema.nullable().optional(),
};
