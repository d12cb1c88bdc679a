// Alert delivery (DECISION, not shown in the spec): the body of a WEBHOOK
// delivery, the delivery log and its query, an acknowledged alert.
import { z } from 'zod';
import {
  listOf,
  PageMetaSchema,
  pageQuery,
  PathParamSchema,
  qDate,
  RunbookLinkSchema,
  fromNotAfterTo,
  qInt,
  TimestampSchema,
} from './common.js';
import {
  AlertEventSchema,
  CheckStatusValueSchema,
  CheckTypeSchema,
  NotificationStatusSchema,
} from './enums.js';
import { ChannelTypeSchema } from './channels.js';

/**
 * DECISION: the JSON body of a WEBHOOK delivery (methods that carry a body), the
 * same for every event. `check` and `status` are null for a `test` event.
 */
export const AlertPayloadSchema = z.looseObject({
  event: AlertEventSchema,
  deliveryId: z.string(),
  alertId: z.string().nullable(),
  check: z.looseObject({ id: z.string(), name: z.string(), type: CheckTypeSchema }).nullable(),
  status: CheckStatusValueSchema.nullable(),
  failingLocations: z.array(z.looseObject({ id: z.string(), name: z.string() })),
  error: z.string().nullable(),
  resultId: z.string().nullable(),
  incidentId: z.string().nullable(),
  occurredAt: TimestampSchema,
  /** The result at the service, when the service knows its public address (`publicUrl`). */
  link: z.string().nullable(),
  /** DECISION (docs/alerts.md): `acknowledgement` events only: the name of the key that acknowledged. */
  acknowledgedBy: z.string().optional(),
  /** Reminders only: which one (1, 2, ...). */
  reminder: z.number().int().optional(),
  /**
   * DECISION (docs/maintenance.md): the page sent when a maintenance window
   * ends over a check still failing: the window, and since when the check fails.
   */
  maintenance: z.looseObject({ id: z.string(), name: z.string(), failingSince: TimestampSchema }).optional(),
  /**
   * `certificate` events only: the certificate that expires first (`chain`: an
   * intermediate, before the leaf), the threshold crossed, and where it was seen.
   */
  certificate: z
    .looseObject({
      subject: z.string(),
      issuer: z.string(),
      validTo: TimestampSchema,
      daysRemaining: z.number().int(),
      chain: z.boolean(),
      threshold: z.number().int(),
      location: z.looseObject({ id: z.string(), name: z.string() }),
    })
    .optional(),
  /**
   * DECISION (docs/service.md, "Heartbeats"): a heartbeat run's exit code, duration and the
   * last 1 KB of its output, on the events of a heartbeat check's failed run.
   */
  heartbeat: z
    .looseObject({
      exitCode: z.number().int().nullable(),
      durationMs: z.number().int(),
      outputTail: z.string(),
    })
    .optional(),
  channel: z.looseObject({ id: z.number().int(), name: z.string() }),
  /**
   * DECISION (docs/alerts.md, "A broken location"): `location` and `location-recovery` events
   * only (`check` and `alertId` null): the location, the outage's id (PagerDuty's dedup_key,
   * Opsgenie's alias), since when, and its checks failing there of those compared.
   */
  location: z.looseObject({ id: z.string(), name: z.string() }).optional(),
  outageId: z.string().optional(),
  since: TimestampSchema.optional(),
  failing: z.number().int().optional(),
  total: z.number().int().optional(),
  /** Why the location is down, in a sentence ("no runner has asked for work since …" or the share failing). */
  cause: z.string().optional(),
  /**
   * DECISION (docs/alerts.md): the check's runbook (an http(s) URL; its group's when it has
   * none), null when neither has one; a body from an older service without it reads as null.
   */
  runbook: z.string().nullable().default(null),
  /** DECISION (docs/alerts.md): the check's links (else its group's), [] when none. */
  links: z.array(RunbookLinkSchema).default([]),
});
export type AlertPayload = z.infer<typeof AlertPayloadSchema>;

/** DECISION: one record of GET /v1/alert-notifications, the delivery log. */
export const AlertNotificationSchema = z.looseObject({
  id: z.string(),
  event: AlertEventSchema,
  status: NotificationStatusSchema,
  channel: z.looseObject({ id: z.number().int(), name: z.string(), type: ChannelTypeSchema }),
  check: z.looseObject({ id: z.string(), name: z.string() }).nullable(),
  alertId: z.string().nullable(),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  createdAt: TimestampSchema,
  sentAt: TimestampSchema.nullable(),
  nextAttemptAt: TimestampSchema.nullable(),
  /**
   * DECISION (docs/alerts.md): the answer of a channel test only: the body sent, its
   * secrets masked, and the receiver's answer (status and the start of its body).
   */
  sentBody: z.string().nullable().optional(),
  answer: z.looseObject({ status: z.number().int().nullable(), body: z.string() }).nullable().optional(),
});
export type AlertNotification = z.infer<typeof AlertNotificationSchema>;

export const AlertNotificationListSchema = listOf(AlertNotificationSchema, PageMetaSchema);
export type AlertNotificationList = z.infer<typeof AlertNotificationListSchema>;

/** DECISION: the answer of POST /v1/check-alerts/{alertId}/acknowledge. */
export const CheckAlertSchema = z.looseObject({
  id: z.string(),
  checkId: z.string(),
  openedAt: TimestampSchema,
  resolvedAt: TimestampSchema.nullable(),
  acknowledgedAt: TimestampSchema.nullable(),
  remindersSent: z.number().int(),
});
export type CheckAlert = z.infer<typeof CheckAlertSchema>;

/** DECISION: the delivery log pages like the others, newest first. */
export const AlertNotificationsQuerySchema = z
  .strictObject({
    checkId: PathParamSchema.optional(),
    channelId: qInt(1, Number.MAX_SAFE_INTEGER).optional(),
    status: NotificationStatusSchema.optional(),
    from: qDate.optional(),
    to: qDate.optional(),
    ...pageQuery(),
  })
  .refine(...fromNotAfterTo);
export type AlertNotificationsQuery = z.input<typeof AlertNotificationsQuerySchema>;
