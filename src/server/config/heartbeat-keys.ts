// A heartbeat check's keys beyond `token`, `frequency` and `grace` (docs/service.md,
// "Heartbeats"): a cron schedule in a time zone instead of a frequency, and the longest
// a run may take between its /start and its end. Read by src/server/heartbeats/.
import { z } from 'zod';
import { cronProblem } from '../../domain/cron-schedule.js';
import { FrequencySchema } from './frequency.js';

/** A heartbeat's alerts page on its first failed run unless the check says otherwise. */
export const HEARTBEAT_AFTER_FAILURES = 1;
/** A schedule without a zone is in UTC. */
export const DEFAULT_TIMEZONE = 'UTC';

export const HEARTBEAT_KEYS = {
  /** heartbeat: a cron expression (5 fields, or @daily...), instead of `frequency`. */
  schedule: z.string().min(1).max(200).optional(),
  /** heartbeat: the IANA zone the schedule is read in (default UTC). */
  timezone: z.string().min(1).max(64).optional(),
  /** heartbeat: a run still going this long after its /start fails (default: grace). */
  maxRunTime: FrequencySchema.optional(),
};

/**
 * Before defaults apply (zod preprocess): a heartbeat naming both `schedule` and
 * `frequency` is refused (the frequency would have a default otherwise, and the two
 * could not be told apart), and its `alerts.afterFailures` defaults to 1.
 */
export function heartbeatInput(raw: unknown, ctx: z.RefinementCtx): unknown {
  if (typeof raw !== 'object' || raw === null || (raw as { type?: unknown }).type !== 'heartbeat') return raw;
  const check = raw as Record<string, unknown>;
  if (check['schedule'] !== undefined && check['frequency'] !== undefined) {
    const id = typeof check['id'] === 'string' ? check['id'] : '?';
    ctx.addIssue({
      code: 'custom',
      path: ['frequency'],
      message: `heartbeat check "${id}" has both schedule and frequency: give one`,
    });
  }
  const alerts = typeof check['alerts'] === 'object' && check['alerts'] !== null ? check['alerts'] : {};
  if ((alerts as { afterFailures?: unknown }).afterFailures !== undefined) return raw;
  return { ...check, alerts: { ...alerts, afterFailures: HEARTBEAT_AFTER_FAILURES } };
}

type HeartbeatFields = { type: string } & { [K in keyof typeof HEARTBEAT_KEYS]?: string | undefined };

/** The keys' rules once parsed: only heartbeats take them, a zone needs a schedule, the schedule must parse. */
export function refineHeartbeat(check: HeartbeatFields, ctx: z.RefinementCtx): void {
  const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
  if (check.type !== 'heartbeat') {
    for (const key of Object.keys(HEARTBEAT_KEYS) as Array<keyof typeof HEARTBEAT_KEYS>)
      if (check[key] !== undefined)
        issue(key, `${key} belongs to heartbeat checks, not ${check.type} checks`);
    return;
  }
  if (check.schedule === undefined) {
    if (check.timezone !== undefined) issue('timezone', 'a timezone belongs with a schedule');
    return;
  }
  const problem = cronProblem(check.schedule, check.timezone ?? DEFAULT_TIMEZONE);
  if (problem)
    issue(check.timezone !== undefined && problem.includes('IANA') ? 'timezone' : 'schedule', problem);
}
