// What a heartbeat check's status says beyond the rules every check shares
// (docs/service.md, "Heartbeats"): the schedule as written, the next ping due, the run
// under way, and a check awaiting its first ping shown unknown with its deadline,
// whatever runs of an earlier schedule or token say.
import type { CheckStatus } from '../../api/schemas/index.js';
import type { HeartbeatView } from '../heartbeats/judge.js';

const iso = (at: number | null) => (at === null ? null : new Date(at).toISOString());

/** The heartbeat's fields on its status (a copy); a check not enabled is left as the rules made it. */
export function withHeartbeat(status: CheckStatus, beat: HeartbeatView): CheckStatus {
  const { judgement } = beat;
  const awaiting = judgement.awaitingFirstPing;
  const out: CheckStatus = {
    ...status,
    schedule: { ...status.schedule, frequency: beat.label },
    nextPingDue: status.schedule.enabled ? iso(judgement.nextPingDue) : null,
    awaitingFirstPing: null,
    runningSince: iso(beat.runningSince),
  };
  if (!awaiting || !status.schedule.enabled) return out;
  const dueBy = new Date(awaiting.dueBy).toISOString();
  return {
    ...out,
    status: 'unknown',
    statusReason: `waiting for the first ping, due by ${dueBy}`,
    awaitingFirstPing: { dueBy },
    locations: out.locations.map((l) => ({ ...l, status: 'unknown' })),
  };
}
