// Location outages (docs/alerts.md, "A broken location"): one row per outage, shared by
// every instance; at most one open per location of an account, so whichever instance
// declares it first writes it, with its pages, and the others find it declared.
import type { NewNotification } from './alerts-store.js';

export interface OutageRow {
  id: string;
  accountId: string;
  locationId: string;
  /** When it was declared (epoch ms). */
  since: number;
  endedAt: number | null;
  /** The location's remote runners stopped asking for work (rather than its checks failing). */
  noRunner: boolean;
  failing: number;
  total: number;
  /** The checks still failing at its end were paged for (alerting/hold-end.ts): nothing is left to do. */
  endPaged: boolean;
  /** The channels its `location` page went to (not held): its recovery goes to these. */
  channels: number[];
}

export interface OutageStore {
  /**
   * Declares an outage with its pages, in one transaction; false (nothing written) when the
   * location has an open one already.
   */
  declareOutage(outage: OutageRow, notifications: readonly NewNotification[], now: number): Promise<boolean>;
  /** Ends an open outage with its recovery pages, in one transaction; false when it had ended. */
  endOutage(
    accountId: string,
    id: string,
    endedAt: number,
    notifications: readonly NewNotification[],
  ): Promise<boolean>;
  /** The open outages and the ended ones whose end was not yet paged for, of every account. */
  liveOutages(): Promise<OutageRow[]>;
  /** The end of an outage was paged for. */
  markOutageEndPaged(accountId: string, id: string): Promise<void>;
}
