// CHAT: an incoming-webhook POST in the shape chat services accept: `text`, and
// `channel` when the channel names one.
import { oneLine } from '../message.js';
import type { HttpPoster } from './http.js';
import type { Sender } from './types.js';

export function chatSender(post: HttpPoster): Sender {
  return (delivery, signal) => {
    const config = delivery.channel.config as { url: string; channel?: string };
    const body: Record<string, string> = { text: oneLine(delivery.payload) };
    if (config.channel) body['channel'] = config.channel;
    return post(
      {
        method: 'POST',
        url: config.url,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'checkwall-alerts',
          'x-checkwall-delivery': delivery.id,
        },
        body: JSON.stringify(body),
      },
      signal,
    );
  };
}
