// The alerting part of Storage (types.ts): incidents, alerts, and the outbox of
// notifications written with the status change that caused them.
import type { AlertChannel, AlertEvent, NotificationStatus } from '../../api/schemas/index.js';
import type { HoldKind } from './holds-store.js';

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
  /**
   * docs/alerts.md, "No race": a pending page that waits for a hold's decision (`on`, e.g.
   * `location:<id>`) until `until` at most; settled earlier by settleWaiting.
   */
  wait?: { on: string; until: number } | undefined;
  /**
   * docs/alerts.md, "Grouping per channel": sent at this time with the channel's other pages of
   * the same event due then (alerting/grouping.ts), as one message.
   */
  groupUntil?: number | null | undefined;
}

/** The pages waiting on one decision, of one account. */
export interface WaitingGroup {
  accountId: string;
  on: string;
  /** When the first of them was written, and when the first one's wait runs out. */
  since: number;
  until: number;
}

export interface NotificationRow extends Omit<NewNotification, 'status' | 'wait'> {
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
  /**
   * The page of a check still failing when a hold ended (alerting/hold-end.ts): claimed
   * for this check and end in the same transaction as its notifications, so it is
   * written once, by whichever instance or start writes it first, or not at all.
   */
  holdEnd?: { kind: HoldKind; holdId: string; endsAt: number } | undefined;
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

/** Incidents, alerts and their outbox of notifications. */
export interface AlertStore {
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
  /** Open alerts of every account, acknowledged or not (Alertmanager's re-posts). */
  openAlerts(): Promise<Array<AlertRow & { accountId: string }>>;
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
  /**
   * Lets go at once of the leases of instances that are gone (killed with an attempt under
   * way), so their notifications are delivered now rather than when the lease runs out;
   * returns how many. A live instance keeps its leases, however slow its attempt.
   * SQLite (one instance per file): every lease but this storage's own. PostgreSQL: the
   * leases of instances whose session lock (held while the instance is connected) is free.
   */
  releaseOrphanedLeases(): Promise<number>;
  /** The pages waiting for a decision, grouped by what they wait on. */
  waitingNotifications(): Promise<WaitingGroup[]>;
  /**
   * Settles the pages waiting on `on`: held (suppressed, the reason as their error), or
   * released to go now (all of them, or only those whose wait ran out by `now`); returns how many.
   */
  settleWaiting(
    accountId: string,
    on: string,
    outcome: { held: string } | { release: 'all' | 'expired' },
    now: number,
  ): Promise<number>;
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
}
