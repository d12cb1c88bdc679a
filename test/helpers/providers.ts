// Loopback stand-ins for PagerDuty's Events API v2 and Opsgenie's Alert API that
// check each request against the provider's published rules and answer as the
// provider does: 202 (PagerDuty) / 202 (Opsgenie) when it is good, 400 with the
// provider's error shape when it is not. A test may script a 429 or a 5xx first.
import { json, startFixture, type Fixture, type SeenRequest } from './fixture.js';

/**
 * PagerDuty Events API v2, "Send an Alert Event":
 * https://developer.pagerduty.com/docs/events-api-v2/trigger-events/ —
 * event_action one of trigger, acknowledge, resolve; dedup_key at most 255 characters;
 * payload.summary at most 1,024 characters, payload.severity one of critical, error,
 * warning, info, payload.source required, payload.timestamp ISO 8601 (trigger only).
 */
export function pagerdutyProblems(body: Record<string, unknown>): string[] {
  const out: string[] = [];
  if (typeof body['routing_key'] !== 'string' || !body['routing_key']) out.push('routing_key is required');
  const action = body['event_action'];
  if (!['trigger', 'acknowledge', 'resolve'].includes(action as string)) out.push('event_action is invalid');
  const key = body['dedup_key'];
  if (typeof key !== 'string' || key.length === 0 || key.length > 255)
    out.push('dedup_key must be 1-255 characters');
  if (action !== 'trigger') return out;
  const p = body['payload'] as Record<string, unknown> | undefined;
  if (!p) return [...out, 'payload is required for trigger'];
  const summary = p['summary'];
  if (typeof summary !== 'string' || !summary || summary.length > 1024)
    out.push('payload.summary must be 1-1024 characters');
  if (!['critical', 'error', 'warning', 'info'].includes(p['severity'] as string))
    out.push('payload.severity is invalid');
  if (typeof p['source'] !== 'string' || !p['source']) out.push('payload.source is required');
  const ts = p['timestamp'];
  if (
    ts !== undefined &&
    (typeof ts !== 'string' || !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(ts))
  )
    out.push('payload.timestamp must be ISO 8601');
  return out;
}

/**
 * Opsgenie Alert API: https://docs.opsgenie.com/docs/alerts-and-alert-fields — message
 * required, at most 130 characters; alias at most 512; description at most 15,000
 * (https://support.atlassian.com/opsgenie/docs/update-an-alerts-description);
 * priority P1 to P5. Acknowledge and close by alias: /v2/alerts/{alias}/acknowledge|close?identifierType=alias.
 */
/** A dialect's request as a receiver would have seen it (path and query only), for the rules below. */
export const asSeen = (req: {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}): SeenRequest => {
  const url = new URL(req.url);
  return { method: req.method, url: url.pathname + url.search, headers: req.headers, body: req.body, at: 0 };
};

export function opsgenieProblems(req: SeenRequest): string[] {
  const out: string[] = [];
  if (!/^GenieKey \S+$/.test(String(req.headers['authorization'])))
    out.push('Authorization must be GenieKey <key>');
  const url = new URL(req.url, 'http://x');
  const body = JSON.parse(req.body || '{}') as Record<string, unknown>;
  const action = /^\/v2\/alerts\/([^/]+)\/(acknowledge|close)$/.exec(url.pathname);
  if (action) {
    if (url.searchParams.get('identifierType') !== 'alias') out.push('identifierType must be alias');
    if (decodeURIComponent(action[1]!).length > 512) out.push('alias must be at most 512 characters');
    return out;
  }
  if (url.pathname !== '/v2/alerts') return [...out, `no such endpoint ${url.pathname}`];
  const message = body['message'];
  if (typeof message !== 'string' || !message || message.length > 130)
    out.push('message must be 1-130 characters');
  const alias = body['alias'];
  if (alias !== undefined && (typeof alias !== 'string' || alias.length > 512))
    out.push('alias must be at most 512 characters');
  const description = body['description'];
  if (description !== undefined && (typeof description !== 'string' || description.length > 15_000))
    out.push('description must be at most 15000 characters');
  if (body['priority'] !== undefined && !/^P[1-5]$/.test(String(body['priority'])))
    out.push('priority must be P1-P5');
  return out;
}

export type Script = (n: number) => { status: number; headers?: Record<string, string> } | undefined;

/** A receiver judging each request with `problems`; `script` may answer a request first (429, 5xx). */
export async function startProvider(
  problems: (req: SeenRequest) => string[],
  script: Script = () => undefined,
): Promise<Fixture & { refused: string[][] }> {
  const refused: string[][] = [];
  const fixture = await startFixture((req, res, n) => {
    const scripted = script(n);
    if (scripted) return json(res, scripted.status, { message: 'scripted' }, scripted.headers);
    const wrong = problems(req);
    if (wrong.length > 0) {
      refused.push(wrong);
      return json(res, 400, { status: 'invalid event', message: 'Event object is invalid', errors: wrong });
    }
    json(res, 202, { status: 'success', message: 'Event processed' });
  });
  return Object.assign(fixture, { refused });
}

export const pagerdutyReceiver = (script?: Script) =>
  startProvider((req) => pagerdutyProblems(JSON.parse(req.body) as Record<string, unknown>), script);
export const opsgenieReceiver = (script?: Script) => startProvider(opsgenieProblems, script);
