// Which channels hear which events. An acknowledgement tells the tools that track
// an alert (a webhook of any format, a chat room) that someone has it; it pages no
// one, so it never goes to a person's mail, phone or SMS, and Alertmanager, which
// has no such state, is not sent it.
import type { AlertEvent } from '../../api/schemas/index.js';
import type { StoredChannel } from '../storage/types.js';

export function hearsEvent(channel: Pick<StoredChannel, 'type' | 'config'>, event: AlertEvent): boolean {
  if (event !== 'acknowledgement') return true;
  if (channel.type === 'CHAT') return true;
  return channel.type === 'WEBHOOK' && channel.config['format'] !== 'alertmanager';
}
