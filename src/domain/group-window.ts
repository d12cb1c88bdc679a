// A channel's grouping window (docs/alerts.md, "Grouping per channel"): the one it was
// given, else its type's default. The service groups by it; the console shows it.
import type { AlertChannel } from '../api/schemas/index.js';

/** A WEBHOOK's receiver (Alertmanager, PagerDuty, a script) groups for itself. */
export const defaultGroupWindowSeconds = (type: AlertChannel['type']): number =>
  type === 'WEBHOOK' ? 0 : 30;

/** The window that applies to a channel, in seconds (0: every notice on its own). */
export const groupWindowOf = (channel: {
  type: AlertChannel['type'];
  groupWindowSeconds?: number | null | undefined;
}): number => channel.groupWindowSeconds ?? defaultGroupWindowSeconds(channel.type);
