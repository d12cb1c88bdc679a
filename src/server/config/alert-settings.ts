// A check's `alerts` settings in the config file, each with its default.
import { z } from 'zod';
import { ALERT_DEFAULTS } from '../../domain/alert-policy.js';
import { CERTIFICATE_EXPIRY_DEFAULTS } from '../../domain/certificate.js';

/** When a check alerts (src/domain/alert-policy.ts); every key has a default. */
export const AlertSettingsSchema = z.strictObject({
  afterFailures: z.number().int().min(1).max(100).default(ALERT_DEFAULTS.afterFailures),
  onRecovery: z.boolean().default(ALERT_DEFAULTS.onRecovery),
  onDegraded: z.boolean().default(ALERT_DEFAULTS.onDegraded),
  /** Minutes (fractions allowed) between reminders; 0 sends none. */
  remindEveryMinutes: z.number().min(0).max(10_080).default(ALERT_DEFAULTS.remindEveryMinutes),
  maxReminders: z.number().int().min(0).max(100).default(ALERT_DEFAULTS.maxReminders),
  minIntervalSeconds: z.number().min(0).max(86_400).default(ALERT_DEFAULTS.minIntervalSeconds),
  /**
   * docs/certificates.md: a `certificate` event when fewer than each of these days remain before
   * the check's certificate (or an intermediate) expires, once per certificate; [] sends none.
   */
  certificateExpiryDays: z
    .array(z.number().int().min(1).max(365))
    .max(10)
    .default([...CERTIFICATE_EXPIRY_DEFAULTS]),
});
