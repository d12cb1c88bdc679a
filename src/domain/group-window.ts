// A channel's grouping window (docs/alerts.md, "Grouping per channel"): the one it was
// given, else its type's default. The service groups by it; the console shows it.
import type { AlertChannel } from '../api/schemas/index.js';

/** A WEBHOOK's receiver (Alertmanager, PagerDuty, a script) groups for itself. */
export const defaultGroupWindowSeconds = (type: AlertChannel['type']): number =>
  type === 'WEBHOOK' ? 0 : 30;

/**
 * WEBHOOK formats whose receiver keeps one alert per key of ours (PagerDuty's dedup_key,
 * Opsgenie's alias, Alertmanager's labels): a grouped message carries one key, so the other
 * alerts of its group would never open there and the first's recovery would close them all.
 * They are never grouped, whatever window they were given.
 */
const ONE_ALERT_PER_MESSAGE: ReadonlySet<unknown> = new Set(['pagerduty', 'opsgenie', 'alertmanager']);

/** The window that applies to a channel, in seconds (0: every notice on its own). */
export const groupWindowOf = (channel: {
  type: AlertChannel['type'];
  groupWindowSeconds?: number | null | undefined;
  config?: Record<string, unknown> | undefined;
}): number =>
  channel.type === 'WEBHOOK' && ONE_ALERT_PER_MESSAGE.has(channel.config?.['format'])
    ? 0
    : (channel.groupWindowSeconds ?? defaultGroupWindowSeconds(channel.type));

/** How the console writes a window, as the GROUP column shows it: 30s, 2m, 90s; 0 is `off`. */
export const groupWindowText = (seconds: number): string =>
  seconds === 0 ? 'off' : seconds % 60 === 0 ? `${seconds / 60}m` : `${seconds}s`;

/** Why typed text is not a window (the form's field and the channels view's `w` say it alike). */
export const GROUP_WINDOW_REASON = 'seconds (90) or minutes (2m), at most 60m, or blank for the default';

/** The longest window the service takes (docs/alerts.md, "Grouping per channel"). */
export const MAX_GROUP_WINDOW_SECONDS = 3600;

/**
 * Typed text in seconds: whole seconds (`90`, `90s`) or minutes (`2m`), as the GROUP column
 * writes them; `off` is 0. Undefined when it is none of these. Whether it is at most
 * MAX_GROUP_WINDOW_SECONDS is the caller's to say (the form leaves it to the schema).
 */
export function parseGroupWindow(typed: string): number | undefined {
  const text = typed.trim().toLowerCase();
  if (text === 'off') return 0;
  const m = /^(\d{1,7})\s*(s|m)?$/.exec(text);
  return m ? Number(m[1]) * (m[2] === 'm' ? 60 : 1) : undefined;
}
