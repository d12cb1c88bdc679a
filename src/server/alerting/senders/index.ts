// The sender of each channel type, with the service's transports.
import type { ChannelType } from '../../../api/schemas/index.js';
import type { ServiceConfig } from '../../config/schema.js';
import { chatSender } from './chat.js';
import { emailSender } from './email.js';
import { createHttpPoster } from './http.js';
import { twilioSender } from './twilio.js';
import type { Sender } from './types.js';
import { webhookSender } from './webhook.js';

export interface Senders {
  byType: Record<ChannelType, Sender>;
  close(): Promise<void>;
}

export function createSenders(config: ServiceConfig, timeoutMs: number, now: () => number): Senders {
  // The operator's provider (sms.baseUrl) may be anywhere; a key holder's targets may not.
  const post = createHttpPoster(timeoutMs);
  const aimed = createHttpPoster(timeoutMs, config.alertDelivery);
  const email = emailSender(config.smtp, timeoutMs);
  return {
    byType: {
      WEBHOOK: webhookSender(aimed, now),
      CHAT: chatSender(aimed),
      EMAIL: email,
      SMS: twilioSender(post, config.sms, 'SMS'),
      PHONE: twilioSender(post, config.sms, 'PHONE'),
    },
    async close() {
      email.close();
      await Promise.all([post.close(), aimed.close()]);
    },
  };
}

/** Channels that cannot deliver for want of a transport: one line for `serve` to print, or null. */
export function transportWarning(
  channels: ReadonlyArray<{ type: ChannelType; name: string }>,
  config: ServiceConfig,
): string | null {
  const missing = channels.filter(
    (c) => (c.type === 'EMAIL' && !config.smtp) || ((c.type === 'SMS' || c.type === 'PHONE') && !config.sms),
  );
  if (missing.length === 0) return null;
  const names = missing.map((c) => `"${c.name}" (${c.type})`).join(', ');
  return `alert channels that cannot deliver: ${names}: set "smtp" for EMAIL and "sms" for SMS and PHONE in the config; their notifications are logged as failed`;
}
