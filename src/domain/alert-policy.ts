/**
 * When a check's status change becomes a notification. docs/alerts.md
 * carries the same text.
 *
 *   - An alert opens when the check is failing and its newest `afterFailures` runs
 *     (at any location) all failed; it sends a `failure` notification.
 *   - An open alert resolves when the check is no longer failing (passing, or
 *     degraded: one location back, as the incident closes); it sends a `recovery`
 *     notification when `onRecovery`.
 *   - A check that turns degraded from passing or unknown, with no alert open,
 *     sends a `degraded` notification when `onDegraded`. It opens no alert.
 *   - The tools that keep an alert open (PagerDuty, Opsgenie, Alertmanager) hear
 *     each close, whatever a person is told: a resolved alert's `recovery` even
 *     without `onRecovery`, and a `degraded-end` when a check whose `degraded`
 *     warning went to them is passing or failing (alerting/audience.ts).
 *   - While an alert is open and not acknowledged, a `reminder` goes every
 *     `remindEveryMinutes` after the last notification, at most `maxReminders`.
 *   - Per channel, a `failure` or `degraded` notification less than
 *     `minIntervalSeconds` after the previous one of the same kind for the same
 *     check is `suppressed` (logged, not sent); a recovery or a reminder of an
 *     alert whose failure was suppressed on a channel is suppressed there too.
 */
import type { CheckStatusValue } from '../api/schemas/index.js';

export interface AlertSettings {
  afterFailures: number;
  onRecovery: boolean;
  onDegraded: boolean;
  remindEveryMinutes: number;
  maxReminders: number;
  minIntervalSeconds: number;
}

export const ALERT_DEFAULTS: AlertSettings = {
  afterFailures: 2,
  onRecovery: true,
  onDegraded: false,
  remindEveryMinutes: 0,
  maxReminders: 3,
  minIntervalSeconds: 60,
};

export interface StatusChange {
  before: CheckStatusValue;
  after: CheckStatusValue;
  /** Failed runs in a row, newest first, at any location (counted up to afterFailures). */
  consecutiveFailures: number;
  alertOpen: boolean;
}

export type StatusEvent = 'failure' | 'recovery' | 'degraded';

export interface AlertDecision {
  open: boolean;
  resolve: boolean;
  /** The notification to send to the subscribed channels, if any. */
  notify: StatusEvent | null;
  /**
   * The check left `degraded` for passing or failing: a `degraded-end` closes the warning
   * where one went (with `onDegraded` off now too: it may have been on when it went).
   * `unknown` keeps it open, as it keeps an alert open.
   */
  endsDegraded: boolean;
}

const NOTHING: AlertDecision = { open: false, resolve: false, notify: null, endsDegraded: false };

export function decideAlert(change: StatusChange, settings: AlertSettings): AlertDecision {
  const endsDegraded =
    change.before === 'degraded' && (change.after === 'passing' || change.after === 'failing');
  return { ...alertChange(change, settings), endsDegraded };
}

function alertChange(change: StatusChange, settings: AlertSettings): AlertDecision {
  const { before, after, alertOpen } = change;
  if (!alertOpen && after === 'failing' && change.consecutiveFailures >= settings.afterFailures)
    return { ...NOTHING, open: true, notify: 'failure' };
  if (alertOpen && (after === 'passing' || after === 'degraded'))
    return { ...NOTHING, resolve: true, notify: settings.onRecovery ? 'recovery' : null };
  if (!alertOpen && after === 'degraded' && (before === 'passing' || before === 'unknown'))
    return settings.onDegraded ? { ...NOTHING, notify: 'degraded' } : NOTHING;
  return NOTHING;
}

export interface OpenAlertState {
  acknowledgedAt: number | null;
  remindersSent: number;
  /** When the failure or the last reminder was enqueued. */
  lastNotifiedAt: number;
}

export function reminderDue(alert: OpenAlertState, settings: AlertSettings, now: number): boolean {
  if (alert.acknowledgedAt !== null || settings.remindEveryMinutes <= 0) return false;
  if (alert.remindersSent >= settings.maxReminders) return false;
  return now - alert.lastNotifiedAt >= settings.remindEveryMinutes * 60_000;
}

/** A failure/degraded notification to one channel, given the previous one of that kind there. */
export function withinMinInterval(previousAt: number | null, now: number, settings: AlertSettings): boolean {
  return previousAt !== null && now - previousAt < settings.minIntervalSeconds * 1000;
}
