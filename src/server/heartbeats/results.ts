// A heartbeat run as a stored result (docs/service.md, "Heartbeats"): one per end
// signal (`triggeredBy: api`), or one the service stores for a job's silence
// (`triggeredBy: schedule`: a due time missed, a run too long).
import { randomUUID } from 'node:crypto';
import { DateTime } from 'luxon';
import type { CheckResult, HeartbeatRun } from '../../api/schemas/index.js';
import { DEFAULT_TIMEZONE } from '../config/heartbeat-keys.js';
import type { CheckConfig, RunLocation } from '../config/schema.js';
import { DEFAULT_GRACE } from './judge.js';

export interface RunEnd {
  check: CheckConfig;
  location: RunLocation;
  end: HeartbeatRun['end'];
  /** When it ended, or when the service judged it (epoch ms). */
  at: number;
  /** The run's /start, null without one. */
  startedAt: number | null;
  exitCode?: number | null | undefined;
  rid?: string | null | undefined;
  /** A missed run's due time. */
  dueAt?: number | undefined;
  /** The job's output (the end ping's body, its tail when cut) and its full size. */
  output?: { text: string; size: number; method: string } | undefined;
  log?: string | undefined;
}

const failed = (r: RunEnd) =>
  r.end === 'fail' || r.end === 'missed' || r.end === 'overrun' || (r.end === 'exit' && r.exitCode !== 0);

/**
 * "03:00:02" in the check's zone (UTC without a schedule), the zone named when it is not UTC:
 * the console and the pages read times in UTC, and a bare 03:00:00 of a Berlin job beside them
 * reads as an hour or two off.
 */
function clock(check: CheckConfig, at: number): string {
  const zone = check.timezone ?? DEFAULT_TIMEZONE;
  const time = DateTime.fromMillis(at, { zone }).toFormat('HH:mm:ss');
  return zone === DEFAULT_TIMEZONE ? time : `${time} ${zone}`;
}

function errorOf(r: RunEnd): CheckResult['error'] | undefined {
  const named = (name: string, message: string) => ({ name, message, stack: `${name}: ${message}` });
  const grace = r.check.grace ?? DEFAULT_GRACE;
  switch (r.end) {
    case 'success':
      return undefined;
    case 'exit':
      return r.exitCode === 0 ? undefined : named('JobExitCode', `the job exited with code ${r.exitCode}`);
    case 'fail':
      return named('JobFailed', 'the job signalled failure (/fail)');
    case 'missed':
      return named(
        'MissedHeartbeat',
        `no ping for the run due at ${clock(r.check, r.dueAt ?? r.at)} (grace ${grace})`,
      );
    case 'overrun':
      return named(
        'RunTooLong',
        `started ${clock(r.check, r.startedAt ?? r.at)}, no end after ${r.check.maxRunTime ?? grace}`,
      );
  }
}

export function heartbeatResult(r: RunEnd): CheckResult {
  const start = r.startedAt ?? (r.end === 'missed' ? (r.dueAt ?? r.at) : r.at);
  const duration = r.startedAt === null ? 0 : Math.max(0, r.at - r.startedAt);
  const signalled = r.end !== 'missed' && r.end !== 'overrun';
  const code = r.exitCode ?? (r.end === 'fail' ? 1 : 0);
  const error = errorOf(r);
  const result: CheckResult = {
    id: randomUUID(),
    checkId: r.check.id,
    checkName: r.check.name,
    checkType: r.check.type,
    runId: r.rid ?? randomUUID(),
    status: failed(r) ? 'failed' : 'success',
    startedAt: new Date(start).toISOString(),
    finishedAt: new Date(r.at).toISOString(),
    duration,
    location: { id: r.location.id, name: r.location.name, region: r.location.region },
    // Never the token: results are read by every read key.
    request: {
      method: r.output?.method ?? 'PING',
      url: `/v1/heartbeats/…/${r.end}`,
      headers: {},
      body: null,
    },
    response: signalled
      ? {
          statusCode: code,
          statusText: r.end === 'exit' ? `exit ${code}` : r.end,
          headers: {},
          body: r.output?.text ?? '',
          responseTime: duration,
          size: r.output?.size ?? 0,
        }
      : null,
    assertions: [],
    timing: { total: duration },
    tags: r.check.tags,
    triggeredBy: signalled ? 'api' : 'schedule',
    heartbeat: {
      end: r.end,
      exitCode: r.exitCode ?? null,
      startedAt: r.startedAt === null ? null : new Date(r.startedAt).toISOString(),
      rid: r.rid ?? null,
      ...(r.log ? { log: r.log } : {}),
    },
  };
  if (error) result.error = error;
  return result;
}
