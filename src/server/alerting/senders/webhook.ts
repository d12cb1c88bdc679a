// WEBHOOK: the body of the channel's format (ours by default, or a provider's:
// dialects/), the configured URL, query parameters and headers, and our headers:
// the delivery id (the same on every retry), the event, and an HMAC-SHA256 of the
// body with the channel's signing secret.
import { createHmac } from 'node:crypto';
import { DIALECTS } from '../dialects/index.js';
import type { DialectOutcome, WebhookSettings } from '../dialects/types.js';
import type { HttpPoster } from './http.js';
import { permanent, type Delivery, type Sender } from './types.js';

const CARRIES_BODY = new Set(['POST', 'PUT', 'PATCH']);

export function signature(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** Our own body: the payload as JSON, for methods that carry one. */
function checkwallBody(delivery: Delivery, config: WebhookSettings): DialectOutcome {
  const body = CARRIES_BODY.has(config.method) ? JSON.stringify(delivery.payload) : '';
  return {
    method: config.method,
    url: config.url,
    headers: body ? { 'content-type': 'application/json' } : {},
    body,
  };
}

export function webhookSender(post: HttpPoster, now: () => number): Sender {
  return async (delivery, signal) => {
    const config = delivery.channel.config as unknown as WebhookSettings;
    const format = config.format ?? 'checkwall';
    const made =
      format === 'checkwall' ? checkwallBody(delivery, config) : DIALECTS[format](delivery, config, now());
    // Nothing to say to this provider (Alertmanager and an acknowledgement): delivered as intended.
    if ('skip' in made) return { ok: true };
    if ('refuse' in made) return permanent(made.refuse);
    const url = new URL(made.url);
    for (const q of config.queryParameters ?? []) url.searchParams.append(q.key, q.value);
    const headers: Record<string, string> = { 'user-agent': 'checkwall-alerts' };
    for (const h of config.headers ?? []) headers[h.key.toLowerCase()] = h.value;
    Object.assign(headers, made.headers);
    headers['x-checkwall-delivery'] = delivery.id;
    headers['x-checkwall-event'] = delivery.payload.event;
    const secret = delivery.channel.signingSecret;
    if (secret) headers['x-checkwall-signature'] = signature(secret, made.body);
    const explain = format !== 'checkwall';
    return post(
      { method: made.method, url: url.toString(), headers, body: made.body || undefined, explain },
      signal,
    );
  };
}
