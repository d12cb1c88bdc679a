// The holds part of Storage (types.ts): a person's pause of a check and the
// maintenance windows (docs/maintenance.md).
import type { MaintenanceMode, MaintenanceRepeat } from '../../api/schemas/maintenance.js';

/** A person's pause of a check (POST /v1/checks/{id}/pause): no end by design. */
export interface CheckPause {
  accountId: string;
  checkId: string;
  by: string;
  since: number;
}

/**
 * A maintenance window as stored (docs/maintenance.md): times in epoch ms;
 * its state and occurrences are derived from the clock, never stored.
 */
export interface StoredWindow {
  accountId: string;
  id: string;
  name: string;
  reason: string;
  createdBy: string;
  createdAt: number;
  scope: { checks?: string[] | undefined; groups?: string[] | undefined; tags?: string[] | undefined };
  /** A one-off's start and end; a recurring window's first occurrence. */
  startsAt: number;
  endsAt: number;
  repeat: MaintenanceRepeat | null;
  mode: MaintenanceMode;
  excludeFromAvailability: boolean;
  /** A person ended (or cancelled) it early: nothing of it is active from then on. */
  endedEarlyAt: number | null;
  /** A recurring window's occurrences whose end a person changed: start (ms, as a string) → end. */
  occurrenceEnds: Record<string, number>;
}

/** What holds a check back: a person's pause, a maintenance window. */
export interface HoldStore {
  /** Pauses the check; a check paused already keeps its first pause, which is answered. */
  pauseCheck(pause: CheckPause): Promise<CheckPause>;
  /** Ends the check's pause; false when it was not paused. */
  resumeCheck(accountId: string, checkId: string): Promise<boolean>;
  /** Every pause, of every account. */
  pauses(): Promise<CheckPause[]>;

  /** Creates or replaces a maintenance window (docs/maintenance.md). */
  saveMaintenanceWindow(window: StoredWindow): Promise<void>;
  /** Erases a window (a scheduled one cancelled); false when there was none. */
  deleteMaintenanceWindow(accountId: string, id: string): Promise<boolean>;
  /** Every stored window, of every account. */
  maintenanceWindows(): Promise<StoredWindow[]>;
  /**
   * Claims the end of one occurrence of a window (its end, epoch ms) for the page it
   * may send: true once, on one instance, whichever asks first.
   */
  claimMaintenanceEnd(accountId: string, windowId: string, endsAt: number): Promise<boolean>;
}
