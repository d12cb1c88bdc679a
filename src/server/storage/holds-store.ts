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

/**
 * What holds a check's pages back (docs/alerts.md): a maintenance window now; a failing
 * parent (dependency) and a broken location are holds of the same shape.
 */
export type HoldKind = 'maintenance' | 'dependency' | 'location';

/** One end of a hold: when it came, the checks it covered that are still failing page once. */
export interface HoldEnd {
  kind: HoldKind;
  accountId: string;
  /** The window's (or parent check's, or location's) id. */
  id: string;
  name: string;
  /** The end (epoch ms): one occurrence's end for a recurring window. */
  endsAt: number;
}

/** What holds a check back: a person's pause, a maintenance window. */
/** One stored window's row as changed: its window, or null when it was deleted. */
export interface WindowChange {
  accountId: string;
  id: string;
  window: StoredWindow | null;
}

export interface HoldStore {
  /** Pauses the check; a check paused already keeps its first pause, which is answered. */
  pauseCheck(pause: CheckPause): Promise<CheckPause>;
  /** Ends the check's pause; false when it was not paused. */
  resumeCheck(accountId: string, checkId: string): Promise<boolean>;
  /** Every pause, of every account. */
  pauses(): Promise<CheckPause[]>;

  /**
   * Creates or replaces a maintenance window (docs/maintenance.md); `at` (the writer's clock,
   * default now) is its row's updated_at, which maintenanceWindowChanges reads by.
   */
  saveMaintenanceWindow(window: StoredWindow, at?: number): Promise<void>;
  /**
   * Erases a window (a scheduled one cancelled); false when there was none. The row stays
   * as a tombstone updated `at`, so every instance's next incremental read sees it go.
   */
  deleteMaintenanceWindow(accountId: string, id: string, at?: number): Promise<boolean>;
  /** Every stored window, of every account (tombstones left out). */
  maintenanceWindows(): Promise<StoredWindow[]>;
  /** The windows saved or deleted at or after `since` (updated_at); a deleted one has window null. */
  maintenanceWindowChanges(since: number): Promise<WindowChange[]>;
  /**
   * The instant up to which the ends of holds of this kind were looked at and paged for
   * (every instance sharing the database moves it); null before the first look.
   */
  holdEndsProcessed(kind: HoldKind): Promise<number | null>;
  /** Moves holdEndsProcessed forward to `upTo` (never back). */
  markHoldEndsProcessed(kind: HoldKind, upTo: number): Promise<void>;
}
