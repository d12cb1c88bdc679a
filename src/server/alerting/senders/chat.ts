// CHAT: an incoming-webhook POST. Without `config.service`, the shape chat
// services accept (`text`, and `channel` when the channel names one), exactly as
// before dialects; with one, that service's own body (dialects/, docs/alerts.md
// "Chat services").
import { CHAT_DIALECTS, type ChatConfig, type ChatRequest } from '../dialects/index.js';
import { oneLine } from '../message.js';
import type { AlertPayload } from '../../../api/schemas/index.js';
import type { HttpPoster } from './http.js';
import type { Sender } from './types.js';

/**
 * The line without a mention in it: the receiver may be Slack (`<!channel>`, `<@U123>`) or
 * Mattermost (`@channel`, `@all`), and the line carries a target's error. `<` and `>` become
 * ‹ ›, and an @ is followed by a zero-width space; anything else is left as it was.
 */
const unmentioned = (line: string) => line.replace(/</g, '‹').replace(/>/g, '›').replace(/@/g, '@\u200b');

function plainBody(payload: AlertPayload, config: ChatConfig): ChatRequest {
  const body: Record<string, string> = { text: unmentioned(oneLine(payload)) };
  if (config.channel) body['channel'] = config.channel;
  return { url: config.url, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
}

/** The request a CHAT channel makes for one notification. */
export function chatRequest(payload: AlertPayload, config: ChatConfig): ChatRequest {
  return config.service ? CHAT_DIALECTS[config.service](payload, config) : plainBody(payload, config);
}

export function chatSender(post: HttpPoster): Sender {
  return (delivery, signal) => {
    const config = delivery.channel.config as unknown as ChatConfig;
    const request = chatRequest(delivery.payload, config);
    return post(
      {
        method: 'POST',
        url: request.url,
        headers: {
          ...request.headers,
          'user-agent': 'checkwall-alerts',
          'x-checkwall-delivery': delivery.id,
        },
        body: request.body,
        // A service's refusal (Slack's invalid_blocks, Telegram's description) says why the page was refused.
        explain: config.service !== undefined,
      },
      signal,
    );
  };
}
