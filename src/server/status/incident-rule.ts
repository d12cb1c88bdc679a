// When a status change opens or closes an incident. The rule, in full:
//
// - a check turning (or staying) `failing` with no incident open opens one, critical,
//   titled "<check> is failing: <reason>", starting when the result that made it finished;
// - a check `passing` or `degraded` with an incident open closes it at that instant;
// - anything else moves nothing: `unknown` (runs grown old, a pause, no runner) neither
//   opens nor closes one, since it says nothing about the target; a failing check with
//   its incident open keeps that one.
//
// Pure: the time and the new incident's id are arguments. The alert a change opens or
// resolves is the alert planner's (alerting/planner.ts), not this rule's.
import type { CheckStatusValue } from '../../api/schemas/index.js';
import type { IncidentRow } from '../storage/types.js';

export interface IncidentMove {
  openIncident?: IncidentRow;
  closeIncidentAt?: number;
}

export function incidentMove(
  check: { id: string; name: string },
  status: { status: CheckStatusValue; statusReason?: string | null | undefined },
  open: Pick<IncidentRow, 'id'> | null,
  at: number,
  newId: () => string,
): IncidentMove {
  if (status.status === 'failing' && !open)
    return {
      openIncident: {
        id: newId(),
        checkId: check.id,
        severity: 'critical',
        title: `${check.name} is failing: ${status.statusReason ?? ''}`.trim(),
        startedAt: at,
        endedAt: null,
      },
    };
  if (open && (status.status === 'passing' || status.status === 'degraded')) return { closeIncidentAt: at };
  return {};
}
