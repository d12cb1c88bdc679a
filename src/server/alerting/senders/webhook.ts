// WEBHOOK: the configured method, URL, query parameters and headers, the JSON
// payload for methods that carry a body, and two headers of ours: the delivery
// id (the same on every retry) and an HMAC-SHA256 of the body with the
// channel's signing secret.
import { createHmac } from 'node:crypto';
import type { HttpPoster } from './http.js';
import type { Sender } from './types.js';

interface KeyValue {
  key: string;
  value: string;
}
interface WebhookConfig {
  url: string;
  method: string;
  headers?: KeyValue[];
  queryParameters?: KeyValue[];
}

const CARRIES_BODY = new Set(['POST', 'PUT', 'PATCH']);

export function signature(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

export function webhookSender(post: HttpPoster): Sender {
  return (delivery, signal) => {
    const config = delivery.channel.config as unknown as WebhookConfig;
    const url = new URL(config.url);
    for (const q of config.queryParameters ?? []) url.searchParams.append(q.key, q.value);
    const body = CARRIES_BODY.has(config.method) ? JSON.stringify(delivery.payload) : '';
    const headers: Record<string, string> = { 'user-agent': 'checkwall-alerts' };
    for (const h of config.headers ?? []) headers[h.key.toLowerCase()] = h.value;
    if (body) headers['content-type'] = 'application/json';
    headers['x-checkwall-delivery'] = delivery.id;
    headers['x-checkwall-event'] = delivery.payload.event;
    const secret = delivery.channel.signingSecret;
    if (secret) headers['x-checkwall-signature'] = signature(secret, body);
    return post({ method: config.method, url: url.toString(), headers, body: body || undefined }, signal);
  };
}
