// Turns a status change (or a reminder falling due) into the rows one
// transaction writes: the alert opened or resolved and a notification per
// subscribed channel, sent or suppressed by the policy (src/domain/alert-policy.ts).
import { randomUUID } from 'node:crypto';
import type { CheckResult, CheckStatus, CheckStatusValue } from '../../api/schemas/index.js';
import { decideAlert, reminderDue, type AlertSettings } from '../../domain/alert-policy.js';
import {
  certificateKey,
  daysUntil,
  expiresAt,
  newlyCrossed,
  warningEnded,
} from '../../domain/certificate.js';
import type { AccountConfig, CheckConfig } from '../config/schema.js';
import type { AlertChange, AlertRow } from '../storage/types.js';
import type { HoldEnd } from '../storage/holds-store.js';
import { createCertificateWarnings } from './certificate-warnings.js';
import { createNotifier, type PlannerDeps } from './notify.js';

export type { PlannerDeps };

export interface StatusChangeInput {
  account: AccountConfig;
  check: CheckConfig;
  before: CheckStatusValue;
  status: CheckStatus;
  result: CheckResult;
  incidentId: string | null;
  /**
   * Whether the check has an open alert, when the caller knows (the status engine's
   * inputs): false saves reading it for the result of a check that is fine.
   */
  alertOpen?: boolean | undefined;
}

type Plan = Pick<AlertChange, 'openAlert' | 'resolveAlert' | 'notifications' | 'certificateNotice'>;

export type AlertPlanner = ReturnType<typeof createAlertPlanner>;

export function createAlertPlanner(deps: PlannerDeps) {
  const { storage } = deps;
  const notify = createNotifier(deps);
  const certificates = createCertificateWarnings(deps);

  /**
   * What a stored result writes besides the incident: the alert and notifications of its
   * status change, and a `certificate` notice when its certificate crossed an expiry
   * threshold; null when nothing. Every event goes out through `notify`, so whatever
   * holds notifications (a channel's minimum interval, a maintenance window) holds these.
   */
  async function onStatusChange(input: StatusChangeInput): Promise<Plan | null> {
    const [plan, certificate] = await Promise.all([statusPlan(input), certificatePlan(input)]);
    if (!certificate) return plan;
    return {
      ...plan,
      notifications: [...(plan?.notifications ?? []), ...certificate.notifications],
      certificateNotice: certificate.notice,
    };
  }

  /** Certificate notices held by a maintenance window, logged suppressed once per window. */
  const heldCertificates = new Set<string>();

  /**
   * The `certificate` notice of a result whose certificate crossed an expiry threshold not yet
   * sent, or the `certificate-end` of a warning that no longer applies. A result without a
   * certificate (a failed run) does neither.
   */
  async function certificatePlan(input: StatusChangeInput) {
    const { account, check, result } = input;
    const seen = result.certificate;
    if (!seen) return null;
    const thresholds = check.alerts.certificateExpiryDays;
    const now = deps.now();
    const at = expiresAt(seen);
    const left = daysUntil(at, now);
    // A certificate far from expiry (nearly every result) costs no read but, every few minutes,
    // where a warning stands (certificate-warnings.ts); only a standing one is looked at further.
    if (!thresholds.some((t) => left < t)) return certificateEnd(input, now);
    const key = certificateKey(seen);
    const sent = new Set(await storage.certificateThresholdsSent(account.id, check.id, key));
    const crossed = newlyCrossed(left, thresholds, sent);
    if (crossed.length === 0) {
      // Where the warning stands is kept for the Alertmanager sweep, also after a restart.
      await certificates.standing(account, check);
      return null;
    }
    // Under a maintenance window the notice is logged suppressed (once per window here) and
    // not recorded as sent: the first run after the window sends it, if it still applies.
    const window = deps.maintenanceOf?.(account, check);
    const heldAs = window && [account.id, check.id, key, crossed[0], window.id].join('\0');
    if (heldAs !== undefined && heldCertificates.has(heldAs)) return null;
    if (heldAs !== undefined) {
      if (heldCertificates.size >= 10_000) heldCertificates.clear();
      heldCertificates.add(heldAs);
    }
    const notifications = await notify(account, check, 'certificate', {
      status: input.status,
      result,
      alert: null,
      incidentId: null,
      now,
      certificate: {
        subject: seen.subject,
        issuer: seen.issuer,
        validTo: new Date(at).toISOString(),
        daysRemaining: left,
        chain: at < Date.parse(seen.validTo),
        threshold: crossed[0]!,
        location: { id: result.location.id, name: result.location.name },
      },
    });
    const going = notifications.filter((n) => n.status === 'pending').map((n) => n.channelId);
    certificates.sent(account, check, going);
    return { notifications, notice: window ? undefined : { key, thresholds: crossed } };
  }

  /**
   * The `certificate-end` of a check whose warning stands (certificate-warnings.ts), once the
   * newest certificate of every location of the check is outside every threshold: one location
   * still serving the old certificate (a CDN edge not yet renewed) keeps the warning. With the
   * thresholds changed, the ones now set are those that count.
   */
  async function certificateEnd(input: StatusChangeInput, now: number) {
    const { account, check } = input;
    if ((await certificates.standing(account, check)).size === 0) return null;
    const thresholds = check.alerts.certificateExpiryDays;
    const newest = await storage.latestCertificates(account.id, check.id, check.locations);
    if (
      !warningEnded(
        newest.map((l) => l.certificate),
        thresholds,
        now,
      )
    )
      return null;
    const ctx = { status: input.status, result: input.result, alert: null, incidentId: null, now };
    const notifications = await notify(account, check, 'certificate-end', ctx);
    certificates.ended(account, check);
    return { notifications, notice: undefined };
  }

  async function statusPlan(input: StatusChangeInput): Promise<Plan | null> {
    const { account, check, status } = input;
    const settings: AlertSettings = check.alerts;
    const open = input.alertOpen === false ? null : await storage.openAlert(account.id, check.id);
    // Only a failing check with no alert open goes by its run of failures (decideAlert).
    const consecutiveFailures =
      status.status === 'failing' && open === null
        ? await storage.consecutiveFailures(account.id, check.id, settings.afterFailures)
        : 0;
    const decision = decideAlert(
      { before: input.before, after: status.status, consecutiveFailures, alertOpen: open !== null },
      settings,
    );
    if (!decision.open && !decision.resolve && !decision.notify && !decision.endsDegraded) return null;
    const now = deps.now();
    const opened: AlertRow | undefined = decision.open
      ? {
          id: randomUUID(),
          checkId: check.id,
          incidentId: input.incidentId,
          openedAt: Date.parse(input.result.finishedAt),
          resolvedAt: null,
          acknowledgedAt: null,
          remindersSent: 0,
          lastNotifiedAt: now,
        }
      : undefined;
    const alert = opened ?? open;
    const ctx = {
      status,
      result: input.result,
      alert,
      incidentId: input.incidentId ?? alert?.incidentId ?? null,
      now,
    };
    // The tools that keep an alert open hear its close whatever a person is told (audience.ts).
    const quietClose = decision.resolve && !decision.notify;
    const notifications = [
      ...(decision.notify ? await notify(account, check, decision.notify, ctx) : []),
      ...(quietClose ? await notify(account, check, 'recovery', { ...ctx, trackersOnly: true }) : []),
      ...(decision.endsDegraded ? await notify(account, check, 'degraded-end', { ...ctx, alert: null }) : []),
    ];
    return {
      openAlert: opened,
      resolveAlert: decision.resolve && open ? open.id : undefined,
      notifications,
    };
  }

  /** The reminder of one open alert, when it is due. */
  async function reminder(
    account: AccountConfig,
    check: CheckConfig,
    alert: AlertRow,
    status: CheckStatus,
  ): Promise<AlertChange | null> {
    const now = deps.now();
    // A paused (or disabled) check is not run: a reminder would say it is failing while nobody
    // looks. Its alert stays open (a pause is no recovery), reminded of again once it runs.
    if (status.paused || !check.enabled) return null;
    if (!reminderDue(alert, check.alerts, now)) return null;
    const notifications = await notify(account, check, 'reminder', {
      status,
      result: null,
      alert,
      incidentId: alert.incidentId,
      now,
      reminder: alert.remindersSent + 1,
    });
    return {
      checkId: check.id,
      at: now,
      remindAlert: alert.id,
      remindersSent: alert.remindersSent,
      notifications,
    };
  }

  /**
   * The page when a hold ends over a check whose alert is still open: a failure notice
   * saying since when (and during which window; held again when another window is
   * active over it), written only with its claim of the end (AlertChange.holdEnd).
   */
  async function afterHold(
    account: AccountConfig,
    check: CheckConfig,
    alert: AlertRow,
    status: CheckStatus,
    hold: HoldEnd,
  ): Promise<AlertChange> {
    const now = deps.now();
    const failingSince = new Date(alert.openedAt).toISOString();
    const notifications = await notify(account, check, 'failure', {
      ...{ status, result: null, alert, incidentId: alert.incidentId, now },
      ...(hold.kind === 'maintenance' && { maintenance: { id: hold.id, name: hold.name, failingSince } }),
    });
    const holdEnd = { kind: hold.kind, holdId: hold.id, endsAt: hold.endsAt };
    return { checkId: check.id, at: now, notifications, holdEnd };
  }

  /** The `acknowledgement` notices of an open alert someone has just acknowledged (`by`: the key's name). */
  async function acknowledged(
    account: AccountConfig,
    check: CheckConfig,
    alert: AlertRow,
    status: CheckStatus,
    by: string,
  ): Promise<AlertChange> {
    const now = deps.now();
    const ctx = { status, result: null, alert, incidentId: alert.incidentId, now, acknowledgedBy: by };
    return {
      checkId: check.id,
      at: now,
      notifications: await notify(account, check, 'acknowledgement', ctx),
    };
  }

  return { onStatusChange, reminder, afterHold, acknowledged, certificates };
}
