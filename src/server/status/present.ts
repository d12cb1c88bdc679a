// What a status says that moves on its own, read fresh at every answer rather
// than kept with the status (status/engine.ts keeps the rest).
import type { CheckStatus } from '../../api/schemas/index.js';

/** What the status reads of the schedule (the scheduler, wired by service.ts). */
export interface RunSchedule {
  /** When the check next runs at any location; null when disabled or not runnable. */
  nextRun(accountId: string, checkId: string): Date | null;
  /** Why the check's runs are being skipped, if they are. */
  skippedReason(accountId: string, checkId: string): string | undefined;
}

/** Newest contact of a remote location's runners (schedule/runner-hub.ts, wired by service.ts). */
export interface RunnerContacts {
  lastSeen(accountId: string, locationId: string): number | null;
}

export interface PresenterDeps {
  scheduler: RunSchedule;
  /** Absent: no remote runners. */
  runners?: RunnerContacts | undefined;
}

export function createPresenter(deps: PresenterDeps) {
  /**
   * The status with what moves on its own read fresh, never from the cache: the
   * schedule (a run may be skipped or still queued), whether runs are being skipped,
   * and when a remote location's runner was last in touch.
   */
  function present(accountId: string, status: CheckStatus): CheckStatus {
    const { enabled } = status.schedule;
    // A heartbeat is not scheduled: its next run is its next ping due (heartbeat-status.ts).
    const nextRun =
      status.nextPingDue !== undefined
        ? status.nextPingDue
        : enabled
          ? (deps.scheduler.nextRun(accountId, status.checkId)?.toISOString() ?? null)
          : null;
    const skipped = enabled ? deps.scheduler.skippedReason(accountId, status.checkId) : undefined;
    const statusReason =
      skipped === undefined ? status.statusReason : [status.statusReason, skipped].filter(Boolean).join('; ');
    return {
      ...status,
      schedule: { ...status.schedule, nextRun },
      statusReason,
      locations: seen(accountId, status),
    };
  }

  /**
   * A remote location's runner contact is read fresh, as the schedule is (cheap: remote ones
   * only); the computed one stays when newer (it counts the location's newest result).
   */
  function seen(accountId: string, status: CheckStatus): CheckStatus['locations'] {
    if (!status.locations.some((l) => l.remote)) return status.locations;
    return status.locations.map((l) => {
      if (!l.remote) return l;
      const at = deps.runners?.lastSeen(accountId, l.id) ?? null;
      const computed = l.runnerLastSeen ? Date.parse(l.runnerLastSeen) : null;
      return at === null || (computed !== null && computed >= at)
        ? l
        : { ...l, runnerLastSeen: new Date(at).toISOString() };
    });
  }

  return present;
}
