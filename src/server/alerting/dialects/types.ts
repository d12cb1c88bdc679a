// A dialect renders one notification as the request a service takes: a chat
// service's (by CHAT config.service) or a pager's or template's (by WEBHOOK config.format).
import type { AlertPayload, ChatService, WebhookFormat } from '../../../api/schemas/index.js';
import type { Delivery } from '../senders/types.js';

export interface ChatConfig {
  url: string;
  channel?: string;
  service?: ChatService;
  botToken?: string;
  chatId?: string;
}

export interface ChatRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export type ChatDialect = (p: AlertPayload, config: ChatConfig) => ChatRequest;

export const JSON_HEADERS = { 'content-type': 'application/json' } as const;

// A WEBHOOK dialect turns one delivery into the provider's request (or into nothing,
// when the provider has no use for the event). The sender (senders/webhook.ts) adds
// our headers and the channel's own, and posts it through the address guard.

export interface KeyValue {
  key: string;
  value: string;
}

/** A WEBHOOK channel's stored config. */
export interface WebhookSettings {
  url: string;
  method: string;
  headers?: KeyValue[];
  queryParameters?: KeyValue[];
  format?: WebhookFormat;
  routingKey?: string;
  apiKey?: string;
  repostSeconds?: number;
  template?: string;
  contentType?: string;
}

export interface DialectRequest {
  method: string;
  url: string;
  /** Headers of the dialect (content type, the provider's auth), before the channel's own. */
  headers: Record<string, string>;
  body: string;
}

/**
 * A request; or `skip`, why this event means nothing to this provider (delivered by
 * sending nothing); or `refuse`, why it cannot be sent (a failure, never retried).
 */
export type DialectOutcome = DialectRequest | { skip: string } | { refuse: string };

export type Dialect = (delivery: Delivery, config: WebhookSettings, now: number) => DialectOutcome;

/** `url` with `path` under it (a base address that may end in a slash). */
export const under = (url: string, path: string) => `${url.replace(/\/+$/, '')}${path}`;

export const jsonRequest = (method: string, url: string, body: unknown, headers = {}): DialectRequest => ({
  method,
  url,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});
