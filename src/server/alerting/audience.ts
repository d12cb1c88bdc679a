// Which channels hear which events. An acknowledgement tells the tools that track
// an alert (a webhook of any format, a chat room) that someone has it; it pages no
// one, so it never goes to a person's mail, phone or SMS, and Alertmanager, which
// has no such state, is not sent it. A `degraded-end` or a `certificate-end` only closes
// a warning in the tools that keep one open; no person is told (docs/alerts.md, "The tools that keep
// an alert open").
import type { AlertEvent } from '../../api/schemas/index.js';
import type { StoredChannel } from '../storage/types.js';

type Audience = Pick<StoredChannel, 'type' | 'config'>;

/** The WEBHOOK formats whose tool keeps an alert open until it is told it ended. */
const TRACKER_FORMATS: ReadonlySet<unknown> = new Set(['pagerduty', 'opsgenie', 'alertmanager']);

/** Whether the channel's tool keeps an alert open until it is closed (PagerDuty, Opsgenie, Alertmanager). */
export const keepsAlertOpen = (channel: Audience) =>
  channel.type === 'WEBHOOK' && TRACKER_FORMATS.has(channel.config['format']);

export function hearsEvent(channel: Audience, event: AlertEvent): boolean {
  if (event === 'degraded-end' || event === 'certificate-end') return keepsAlertOpen(channel);
  if (event !== 'acknowledgement') return true;
  if (channel.type === 'CHAT') return true;
  return channel.type === 'WEBHOOK' && channel.config['format'] !== 'alertmanager';
}
