// What both storages write the same way, in the same column order.
import type { NewNotification } from './types.js';

/**
 * An outbox row's values: id, account, channel, check, alert, event, status,
 * payload (JSON text), last error, created at, next attempt (now while pending).
 */
export const notificationValues = (accountId: string, n: NewNotification, now: number) =>
  [
    n.id,
    accountId,
    n.channelId,
    n.checkId,
    n.alertId,
    n.event,
    n.status,
    JSON.stringify(n.payload),
    n.lastError ?? null,
    now,
    n.status === 'pending' ? now : null,
  ] as const;
