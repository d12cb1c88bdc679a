// The storage interface: the only way the service reads or writes what it keeps.
// Asynchronous, for PostgreSQL (pg) as well as SQLite (better-sqlite3, which
// answers at once); test/server/storage/storage.test.ts runs one suite against both.
import type { AuditAction } from '../../api/action-schemas.js';
import type {
  AlertChannel,
  AlertChannelCreate,
  AlertEvent,
  CheckResult,
  NotificationStatus,
  ResultCertificate,
  ResultsSummary,
  Subscriptions,
} from '../../api/schemas.js';
import type { MaintenanceMode, MaintenanceRepeat } from '../../api/maintenance-schemas.js';
import type { HistoryBucket, HistoryCutoffs, HistoryQuery } from './history.js';
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

export interface ResultQuery {
  accountId: string;
  checkId: string;
  from: number; // epoch ms, inclusive
  to: number; // epoch ms, inclusive
  status?: 'success' | 'failed' | undefined;
  location?: string | undefined;
  triggeredBy?: string | undefined;
  responseTimeMin?: number | undefined;
  responseTimeMax?: number | undefined;
  sortBy: 'startedAt' | 'duration' | 'responseTime';
  sortOrder: 'asc' | 'desc';
  offset: number;
  limit: number;
}

export interface RecentRun {
  startedAt: number;
  status: 'success' | 'failed';
  responseTime: number | null;
}

/** A stored run's figures as the statuses read them, with where it ran. */
export interface WindowRun extends RecentRun {
  locationId: string;
}

export interface WindowStats {
  total: number;
  successes: number;
  /** Runs with a response time: what the average and p95 are over. */
  timed: number;
  averageResponseTime: number | null;
  p95ResponseTime: number | null;
}

export interface IncidentRow {
  id: string;
  checkId: string;
  severity: string;
  title: string;
  startedAt: number;
  endedAt: number | null;
}

// A type alias, not an interface: it is assigned into the wire's loose objects.
export type AlertCounts = {
  active: number;
  acknowledged: number;
  total24h: number;
};

/** What createChannel stores: the POST body, what it serves, and a WEBHOOK's signing secret. */
export type NewChannel = AlertChannelCreate & {
  subscriptions?: Subscriptions | undefined;
  signingSecret?: string | undefined;
};

/** `channel` is the wire record (secret masked); `signingSecret` is whole, for the POST answer only. */
export type CreateChannelOutcome =
  | { ok: true; channel: AlertChannel; signingSecret: string | null }
  | { ok: false; reason: 'limit'; limit: number };

/** A channel as the dispatcher needs it: its config and secret whole. */
export interface StoredChannel {
  id: number;
  accountId: string;
  type: AlertChannel['type'];
  name: string;
  config: Record<string, unknown>;
  signingSecret: string | null;
}

export interface AlertRow {
  id: string;
  checkId: string;
  incidentId: string | null;
  openedAt: number;
  resolvedAt: number | null;
  acknowledgedAt: number | null;
  remindersSent: number;
  lastNotifiedAt: number;
}

export interface NewNotification {
  /** The delivery id: the same on every attempt, so receivers can de-duplicate. */
  id: string;
  channelId: number;
  checkId: string | null;
  alertId: string | null;
  event: AlertEvent;
  status: 'pending' | 'suppressed';
  /** The message's facts, frozen when the status changed (AlertPayload less deliveryId). */
  payload: Record<string, unknown>;
  lastError?: string | null;
}

export interface NotificationRow extends Omit<NewNotification, 'status'> {
  accountId: string;
  status: NotificationStatus;
  attempts: number;
  lastError: string | null;
  createdAt: number;
  nextAttemptAt: number | null;
  sentAt: number | null;
  channelName: string;
  channelType: AlertChannel['type'];
}

/** Everything one status change writes, in one transaction (the outbox with the change). */
export interface AlertChange {
  checkId: string;
  at: number;
  openIncident?: IncidentRow | undefined;
  /** Closes the check's open incident at this time (the result's). */
  closeIncidentAt?: number | undefined;
  openAlert?: AlertRow | undefined;
  resolveAlert?: string | undefined;
  /** A reminder went out for this alert: count it and move its clock. */
  remindAlert?: string | undefined;
  /**
   * The alert's reminder count the reminder was planned from: when another instance
   * counted one meanwhile, this reminder and its notifications are not written (each
   * reminder goes out once, whichever instance swept first). Absent: no such check.
   */
  remindersSent?: number | undefined;
  notifications: readonly NewNotification[];
  /**
   * docs/certificates.md: the expiry thresholds of one certificate its `certificate` notifications
   * are sent for. Each is recorded once for every instance: when another recorded one
   * first, it sent them, and this change's `certificate` notifications are not written.
   */
  certificateNotice?: { key: string; thresholds: readonly number[] } | undefined;
}

export type AttemptOutcome =
  | { status: 'sent' }
  | { status: 'failed'; error: string }
  | { status: 'pending'; error: string; nextAttemptAt: number };

export interface NotificationQuery {
  accountId: string;
  checkId?: string | undefined;
  channelId?: number | undefined;
  status?: NotificationStatus | undefined;
  from: number;
  to: number;
  offset: number;
  limit: number;
}

export interface OutboxBacklog {
  pending: number;
  oldestAt: number | null;
}

export interface DeliveryStats {
  last: { id: string; event: AlertEvent; status: NotificationStatus; at: number } | null;
  failures: number;
}

/** One action of a key, as stored (the wire's AuditEvent with `at` in epoch ms). */
export interface AuditRow {
  id: string;
  at: number;
  keyName: string;
  action: AuditAction;
  checkId?: string | undefined;
  targetId?: string | undefined;
  details: Record<string, unknown>;
}

export interface AuditQuery {
  checkId?: string | undefined;
  action?: AuditAction | undefined;
  /** Epoch ms, inclusive. */
  from?: number | undefined;
  to?: number | undefined;
  offset: number;
  limit: number;
}

export interface Storage extends RunQueue {
  insertResult(accountId: string, result: CheckResult): Promise<void>;
  insertResults(accountId: string, results: readonly CheckResult[]): Promise<void>;
  queryResults(q: ResultQuery): Promise<{ items: CheckResult[]; total: number }>;
  summarizeResults(q: ResultQuery): Promise<ResultsSummary>;
  /** Counts, average and (unless `withP95` is false) p95 of the runs in [from, to]. */
  windowStats(
    accountId: string,
    checkId: string,
    from: number,
    to: number,
    withP95?: boolean,
  ): Promise<WindowStats>;
  recentRuns(accountId: string, checkId: string, locationId: string, count: number): Promise<RecentRun[]>;
  /** The runs started in [from, to] at any location, newest first, at most `limit`. */
  windowRuns(
    accountId: string,
    checkId: string,
    from: number,
    to: number,
    limit: number,
  ): Promise<WindowRun[]>;
  /** Failed runs in a row, newest first, at any location, counted up to max. */
  consecutiveFailures(accountId: string, checkId: string, max: number): Promise<number>;
  lastSuccess(accountId: string, checkId: string, locationId: string): Promise<number | null>;
  latestResult(accountId: string, checkId: string): Promise<CheckResult | null>;
  /** The certificate of the newest result that carried one (docs/certificates.md), or null. */
  latestCertificate(accountId: string, checkId: string): Promise<ResultCertificate | null>;

  /**
   * The roll-ups (history.ts) of buckets starting in [from, to], oldest first: one
   * location's, or summed over the check's locations (locationId null). Only buckets with runs.
   */
  history(accountId: string, checkId: string, q: HistoryQuery): Promise<HistoryBucket[]>;
  /** The roll-ups of [from, to] summed into one bucket (starting at `from`). */
  historyTotals(accountId: string, checkId: string, q: HistoryQuery): Promise<HistoryBucket>;

  /** Keeps the PNG of a stored result's page (browser runs); pruned with the result. */
  insertScreenshot(
    accountId: string,
    result: Pick<CheckResult, 'id' | 'checkId' | 'startedAt'>,
    png: Uint8Array,
  ): Promise<void>;
  /** A result's screenshot, or null when it has none (or is not this check's, or this account's). */
  screenshot(accountId: string, checkId: string, resultId: string): Promise<Buffer | null>;

  recordPing(accountId: string, checkId: string, at: number): Promise<void>;

  /** Pauses the check; a check paused already keeps its first pause, which is answered. */
  pauseCheck(pause: CheckPause): Promise<CheckPause>;
  /** Ends the check's pause; false when it was not paused. */
  resumeCheck(accountId: string, checkId: string): Promise<boolean>;
  /** Every pause, of every account. */
  pauses(): Promise<CheckPause[]>;
  lastPing(accountId: string, checkId: string): Promise<number | null>;

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

  createChannel(
    accountId: string,
    body: NewChannel,
    limit: number,
    now: number,
  ): Promise<CreateChannelOutcome>;
  listChannels(
    accountId: string,
    offset: number,
    limit: number,
  ): Promise<{ items: AlertChannel[]; total: number }>;
  countChannels(accountId: string): Promise<number>;
  /** Every channel of every account (the start-up check of transports). */
  allChannels(): Promise<StoredChannel[]>;
  channel(accountId: string, channelId: number): Promise<StoredChannel | null>;
  /** Null when the account has no such channel. */
  subscriptions(accountId: string, channelId: number): Promise<Subscriptions | null>;
  setSubscriptions(accountId: string, channelId: number, subscriptions: Subscriptions): Promise<boolean>;
  /** Channels subscribed to the check, directly or through its group. */
  subscribedChannels(
    accountId: string,
    checkId: string,
    groupId: string | undefined,
  ): Promise<StoredChannel[]>;

  openIncident(accountId: string, incident: IncidentRow): Promise<void>;
  closeIncident(accountId: string, checkId: string, at: number): Promise<void>;
  currentIncident(accountId: string, checkId: string): Promise<IncidentRow | null>;
  /** The check's incidents open at any time in [from, to], oldest first: history, kept for historyDays. */
  incidents(accountId: string, checkId: string, from: number, to: number): Promise<IncidentRow[]>;
  alertCounts(accountId: string, checkId: string, now: number): Promise<AlertCounts>;

  /** Incident, alert and outbox rows of one status change, all or nothing. */
  applyAlertChange(accountId: string, change: AlertChange): Promise<void>;
  openAlert(accountId: string, checkId: string): Promise<AlertRow | null>;
  /** Open, unacknowledged alerts of every account, for the reminder sweep. */
  remindableAlerts(): Promise<Array<AlertRow & { accountId: string }>>;
  /** Sets acknowledgedAt once (a second acknowledgement keeps the first time); null when unknown. */
  acknowledgeAlert(accountId: string, alertId: string, at: number): Promise<AlertRow | null>;
  /** The notifications of one alert: event, channel and status. */
  alertNotices(
    alertId: string,
  ): Promise<Array<{ channelId: number; event: AlertEvent; status: NotificationStatus }>>;
  /** When the newest non-suppressed notification of this event went to the channel for the check. */
  lastNoticeAt(
    accountId: string,
    checkId: string,
    channelId: number,
    event: AlertEvent,
  ): Promise<number | null>;
  /** The expiry thresholds already notified for this certificate of the check (AlertChange.certificateNotice). */
  certificateThresholdsSent(accountId: string, checkId: string, key: string): Promise<number[]>;

  /** Queues a notification outside a status change (a test event). */
  enqueueNotification(accountId: string, notification: NewNotification, now: number): Promise<void>;
  /**
   * Claims pending notifications that are due and not leased, oldest first, leasing
   * them until now + leaseMs and counting the attempt. Channels in skipChannels are
   * left alone (they are busy). A lease that ran out (a killed service) is claimable again.
   */
  claimNotifications(
    now: number,
    leaseMs: number,
    limit: number,
    skipChannels: readonly number[],
  ): Promise<NotificationRow[]>;
  /** Claims one notification by id (the test endpoint delivers it at once). */
  claimNotification(id: string, now: number, leaseMs: number): Promise<NotificationRow | null>;
  finishAttempt(id: string, outcome: AttemptOutcome, now: number): Promise<void>;
  notification(id: string): Promise<NotificationRow | null>;
  /** Notifications waiting to be delivered, of every account, and when the oldest was queued (null: none). */
  outboxBacklog(): Promise<OutboxBacklog>;
  listNotifications(q: NotificationQuery): Promise<{ items: NotificationRow[]; total: number }>;
  deliveryStats(
    accountId: string,
    channelIds: readonly number[],
    since: number,
  ): Promise<Map<number, DeliveryStats>>;

  /** Keeps one action of a key (the audit trail, docs/roles.md). */
  recordAudit(accountId: string, event: AuditRow): Promise<void>;
  /** The account's audit events, newest first (the order recorded breaks ties of `at`), paged. */
  auditEvents(accountId: string, q: AuditQuery): Promise<{ items: AuditRow[]; total: number }>;

  /**
   * Deletes results (and their screenshots), alert events, resolved alerts and
   * finished notifications older than the cut-off; closed incidents and roll-ups
   * older than `history`'s (by default the same cut-off); returns how many results went.
   */
  prune(before: number, history?: HistoryCutoffs): Promise<number>;
  close(): Promise<void>;
}
