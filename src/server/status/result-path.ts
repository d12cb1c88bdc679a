// The write path of a result through the statuses: stored in order with the check's
// other results, the status moved from the kept inputs, then the incident (incident-rule.ts)
// and the alert (the planner, through StatusAlerts) written in one transaction.
import { randomUUID } from 'node:crypto';
import { crashPoint } from '../crash-point.js';
import type { CheckResult, CheckStatus, CheckStatusValue } from '../../api/schemas/index.js';
import type { AccountConfig, CheckConfig } from '../config/schema.js';
import type { AlertChange } from '../storage/types.js';
import { LIST_PERIOD, type StatusCache } from './cache.js';
import type { StatusEngineDeps } from './engine.js';
import { incidentMove } from './incident-rule.js';
import type { StatusReads } from './reads.js';

type PerCheck = <T>(account: AccountConfig, check: CheckConfig, job: () => Promise<T>) => Promise<T>;

export function createResultPath(p: {
  deps: StatusEngineDeps;
  cache: StatusCache;
  reads: StatusReads;
  present: (accountId: string, status: CheckStatus) => CheckStatus;
  perCheck: PerCheck;
  /** A status, incident or alert moved: answers built from statuses are stale. */
  moved: () => void;
  /** New notifications were queued. */
  notify: () => void;
}) {
  const { deps, cache, reads, present, perCheck, moved } = p;

  /** An incident or alert moved (acknowledged, reminded, a delivery failed): the status is read anew. */
  async function rereadCheck(account: AccountConfig, check: CheckConfig) {
    cache.drop(account, check);
    await reads.fresh(account, check, LIST_PERIOD);
    moved();
  }

  /** Moves the status, then writes the incident, alert and outbox rows in one transaction. */
  async function onResult(
    account: AccountConfig,
    check: CheckConfig,
    result: CheckResult,
    before: CheckStatusValue,
  ) {
    const after = await reads.addResult(account, check, result);
    if (!after) return;
    const status = present(account.id, after);
    // The list answers (http/status-list.ts) are rebuilt at once when a check's
    // status moves; other figures may be up to their 2 s old.
    if (status.status !== before) moved();
    // Kept in the inputs (read anew whenever an incident or alert moves): no read per result.
    const inputs = cache.inputs(account, check);
    const open = inputs ? inputs.incident : await deps.storage.currentIncident(account.id, check.id);
    const incident = incidentMove(check, status, open, Date.parse(result.finishedAt), randomUUID);
    const change: AlertChange = { checkId: check.id, at: deps.now(), notifications: [], ...incident };
    const incidentId = incident.openIncident?.id ?? open?.id ?? null;
    const alertOpen = inputs ? inputs.alert !== null : undefined;
    const plan = await deps.alerts?.onStatusChange({
      account,
      check,
      before,
      status,
      result,
      incidentId,
      alertOpen,
    });
    if (!plan && !incident.openIncident && incident.closeIncidentAt === undefined) return;
    // A recovery stored, its alert not yet resolved: the next result resolves it.
    if (plan?.resolveAlert) crashPoint('recovery');
    await deps.storage.applyAlertChange(account.id, { ...change, ...plan });
    if (plan?.openAlert) crashPoint('notification written');
    if (plan?.notifications.length) p.notify();
    await rereadCheck(account, check);
  }

  return {
    rereadCheck,
    /**
     * Stores a result (`write`) and moves the check's status, incident and alert, in
     * order with the check's other results: `before` is the status before this result,
     * and two results arriving together cannot both open an incident. A write that
     * answers false stored nothing (a run another holder has): nothing moves.
     */
    record(account: AccountConfig, check: CheckConfig, result: CheckResult, write: () => Promise<boolean>) {
      return perCheck(account, check, async () => {
        const before = (await reads.cachedOrFresh(account, check, LIST_PERIOD)).status;
        if (!(await write())) return false;
        // Stored, its status change not yet written: the next result (or start) writes it.
        if (result.status !== 'success') crashPoint('failure stored');
        await onResult(account, check, result, before);
        return true;
      });
    },
    /**
     * Another instance stored a result (PostgreSQL's NOTIFY): it moves this one's
     * status as its own results do, in order with them; without the result, the
     * status is read anew.
     */
    peerResult(account: AccountConfig, check: CheckConfig, result: CheckResult | undefined) {
      return perCheck(account, check, async () => {
        if (!result) return rereadCheck(account, check);
        const before = cache.get(account, check, LIST_PERIOD)?.status.status;
        const after = await reads.addResult(account, check, result);
        if (after && after.status !== before) moved();
      });
    },
  };
}
