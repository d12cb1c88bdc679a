// The wire's enumerations that more than one resource names: check types, the
// statuses of a run and of a check, trends, triggers, periods, and the events and
// delivery states of alerts.
import { z } from 'zod';
import { CHECK_STATUSES } from '../../domain/check-statuses.js';
import { openEnum } from './common.js';

export { CHECK_STATUSES };

export const CHECK_TYPES = ['api', 'browser', 'heartbeat', 'tcp', 'multistep', 'url'] as const;
export const CheckTypeSchema = openEnum(CHECK_TYPES);
export type CheckType = z.infer<typeof CheckTypeSchema>;

export const RESULT_STATUSES = ['success', 'failed'] as const;
export const ResultStatusSchema = z.enum(RESULT_STATUSES);
export type ResultStatus = z.infer<typeof ResultStatusSchema>;

export const CheckStatusValueSchema = z.enum(CHECK_STATUSES);
export type CheckStatusValue = z.infer<typeof CheckStatusValueSchema>;

export const TRENDS = ['improving', 'stable', 'degrading'] as const;
export const TrendSchema = z.enum(TRENDS);
export type Trend = z.infer<typeof TrendSchema>;

export const TRIGGERS = ['schedule', 'api', 'manual'] as const;
export const TriggerSchema = z.enum(TRIGGERS);
export type Trigger = z.infer<typeof TriggerSchema>;

export const PERIODS = ['1h', '6h', '24h', '7d', '30d'] as const;
export const PeriodSchema = z.enum(PERIODS);
export type Period = z.infer<typeof PeriodSchema>;

/**
 * DECISION (docs/alerts.md): `certificate`, a certificate of the check expiring
 * (docs/certificates.md); `acknowledgement`, someone acknowledged the alert; `location`
 * and `location-recovery`, a location declared down and up again ("A broken location");
 * `degraded-end`, a check whose `degraded` warning was sent is no longer degraded: it closes
 * that warning in the tools that keep one open (PagerDuty, Opsgenie, Alertmanager) and goes
 * to no other channel ("The tools that keep an alert open"); `certificate-end`, likewise for a
 * check's `certificate` warning once every location shows a renewed certificate
 * (docs/certificates.md, "The certificate event"). The wire's enumeration is open, so a client older than a new kind shows it by its raw name
 * instead of refusing the channel list; the service itself sends only these.
 */
export const ALERT_EVENTS = [
  'failure',
  'recovery',
  'degraded',
  'reminder',
  'test',
  'certificate',
  'acknowledgement',
  'location',
  'location-recovery',
  'degraded-end',
  'certificate-end',
] as const;
export const AlertEventSchema = openEnum(ALERT_EVENTS);
export type AlertEvent = (typeof ALERT_EVENTS)[number];

export const NOTIFICATION_STATUSES = ['pending', 'sent', 'failed', 'suppressed'] as const;
export const NotificationStatusSchema = z.enum(NOTIFICATION_STATUSES);
export type NotificationStatus = z.infer<typeof NotificationStatusSchema>;
