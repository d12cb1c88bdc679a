// The storage interface: the only way the service reads or writes what it keeps.
// Asynchronous, for PostgreSQL (pg) as well as SQLite (better-sqlite3, which
// answers at once); test/server/storage/storage.test.ts runs one suite against both.
// Each concern states its part beside this file; Storage is all of them.
import type { AlertStore } from './alerts-store.js';
import type { AuditStore } from './audit-store.js';
import type { ChannelStore } from './channels-store.js';
import type { HistoryCutoffs } from './history.js';
import type { HoldStore } from './holds-store.js';
import type { ResultStore } from './results-store.js';
import type { RunQueue } from './run-queue.js';

export type { Granularity, HistoryBucket, HistoryCutoffs, HistoryQuery } from './history.js';
export type {
  ClaimedRun,
  RunKey,
  RunnerSeen,
  RunPlace,
  RunQueue,
  RunRequest,
  SkippedRun,
  StoredRun,
} from './run-queue.js';
export type {
  LocationCertificate,
  RecentRun,
  ResultQuery,
  ResultStore,
  WindowRun,
  WindowStats,
} from './results-store.js';
export type { CheckPause, HoldEnd, HoldKind, HoldStore, StoredWindow, WindowChange } from './holds-store.js';
export type { ChannelStore, CreateChannelOutcome, NewChannel, StoredChannel } from './channels-store.js';
export type {
  AlertChange,
  AlertCounts,
  AlertRow,
  AlertStore,
  AttemptOutcome,
  DeliveryStats,
  IncidentRow,
  NewNotification,
  NotificationQuery,
  NotificationRow,
  OutboxBacklog,
  WaitingGroup,
} from './alerts-store.js';
import type { OutageStore } from './outages-store.js';
export type { AuditQuery, AuditRow, AuditStore } from './audit-store.js';

export type { OutageRow, OutageStore } from './outages-store.js';

export interface Storage
  extends RunQueue, ResultStore, HoldStore, ChannelStore, AlertStore, AuditStore, OutageStore {
  /**
   * Deletes results (and their screenshots), alert events, resolved alerts and
   * finished notifications older than the cut-off; closed incidents and roll-ups
   * older than `history`'s (by default the same cut-off); returns how many results went.
   */
  prune(before: number, history?: HistoryCutoffs): Promise<number>;
  close(): Promise<void>;
}
