// One HTTP attempt for the HTTP senders (webhook, chat, the SMS/voice
// provider): 2xx is delivered; 5xx, 429, timeouts and network errors may be
// retried; any other answer is permanent. Messages name the status or the
// error code, never the address or a body (either may carry a secret).
import { Agent, request } from 'undici';
import { parseRetryAfter } from '../../../domain/retry-after.js';
import { guardedConnector, RefusedAddressError, type NetworkRule } from './address-guard.js';
import { permanent, transient, type SendOutcome } from './types.js';

export interface HttpCall {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | undefined;
  /** A provider's refusal says why in its body: keep a sanitised line of it in the error. */
  explain?: boolean | undefined;
}

export type HttpPoster = ((call: HttpCall, signal: AbortSignal) => Promise<SendOutcome>) & {
  close(): Promise<void>;
};

/**
 * Posts through an agent of its own; with `rule` (WEBHOOK and CHAT targets, which any
 * key holder aims), only to the addresses the rule allows (address-guard.ts).
 * Redirects are never followed: undici's request does not, and no redirect interceptor is set.
 */
export function createHttpPoster(timeoutMs: number, rule?: NetworkRule): HttpPoster {
  const agent = new Agent({
    connect: rule ? guardedConnector(rule, timeoutMs) : { timeout: timeoutMs },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  const post = async (call: HttpCall, signal: AbortSignal): Promise<SendOutcome> => {
    const sent = call.body ?? '';
    try {
      const res = await request(call.url, {
        method: call.method as 'POST',
        headers: call.headers,
        body: call.body ?? null,
        dispatcher: agent,
        signal,
      });
      const answer = { status: res.statusCode, body: await headOf(res.body) };
      const outcome = classify(res.statusCode, res.headers['retry-after'], answer.body);
      const exchange = { sent, answer };
      // A provider's own words on a refusal (formats other than checkwall's): in the log.
      const said = !outcome.ok && call.explain ? answerLine(answer.body) : '';
      return said && !outcome.ok
        ? { ...outcome, error: `${outcome.error}: ${said}`, exchange }
        : { ...outcome, exchange };
    } catch (error) {
      // Refused by the rule: the same answer every time, so no retry.
      if (error instanceof RefusedAddressError)
        return { ...permanent(error.message), exchange: { sent, answer: null } };
      return { ...transient(describeFailure(error, signal, timeoutMs)), exchange: { sent, answer: null } };
    }
  };
  return Object.assign(post, { close: () => agent.close() });
}

/** How much of an answer is kept (a channel test shows it): its start, the rest read and dropped. */
export const ANSWER_KEPT_BYTES = 2048;
const ANSWER_READ_BYTES = 128 * 1024;

async function headOf(body: AsyncIterable<Buffer>): Promise<string> {
  const kept: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      if (size < ANSWER_KEPT_BYTES) kept.push(chunk.subarray(0, ANSWER_KEPT_BYTES - size));
      size += chunk.length;
      // Enough read to keep the connection's answer whole; a receiver that streams on is cut.
      if (size > ANSWER_READ_BYTES) break;
    }
  } catch {
    // A body that stalls or breaks off (timed out, cut): its status has told the outcome, and
    // a 2xx taken for a timeout would be sent again, a chat message or an SMS in two copies.
  }
  return Buffer.concat(kept).toString('utf8');
}

export function classify(status: number, retryAfter?: string | string[], body = ''): SendOutcome {
  if (status >= 200 && status < 300) return { ok: true };
  if (status === 429)
    return transient('HTTP 429 (rate limited)', parseRetryAfter(retryAfter) ?? retryAfterInBody(body));
  if (status >= 500) return transient(`HTTP ${status}`);
  // Not followed (createHttpPoster), and the same answer every time: say what to change, not "refused".
  if (status >= 300 && status < 400)
    return permanent(
      `HTTP ${status}: the receiver redirected the request; redirects are not followed, set the channel's URL to the new address`,
    );
  return permanent(`HTTP ${status}: the receiver refused the request`);
}

/**
 * The wait a 429 names in its JSON body when it sends no Retry-After header: Telegram's
 * `parameters.retry_after` (https://core.telegram.org/bots/api#responseparameters), or a
 * top-level `retry_after` (Discord's rate-limit answer), in seconds. Retried sooner, the
 * attempt is refused again and spent.
 */
function retryAfterInBody(body: string): number | undefined {
  try {
    const j = JSON.parse(body) as { retry_after?: unknown; parameters?: { retry_after?: unknown } };
    const seconds = j.parameters?.retry_after ?? j.retry_after;
    return typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0
      ? Math.round(seconds * 1000)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A receiver's answer as one line for the delivery log: its JSON `status`, `message`,
 * `errors` and `description` when it has them, control and escape characters out, at most 300 characters.
 */
export function answerLine(text: string): string {
  let said = text;
  try {
    const j = JSON.parse(text) as {
      message?: unknown;
      errors?: unknown;
      status?: unknown;
      description?: unknown;
    };
    // Telegram's refusal says why in `description` (Bot API, "Making requests").
    const parts = [j.status, j.message, j.errors, j.description].filter((x) => x !== undefined);
    if (parts.length) said = parts.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))).join(' ');
  } catch {
    // Not JSON: the text as it came.
  }
  // eslint-disable-next-line no-control-regex
  const clean = said.replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e]+/g, ' ').trim();
  return clean.length > 300 ? `${clean.slice(0, 299)}…` : clean;
}

const TIMEOUTS = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

export function describeFailure(error: unknown, signal: AbortSignal, timeoutMs: number): string {
  const code = (error as { code?: string } | null)?.code;
  const name = (error as { name?: string } | null)?.name;
  if ((code && TIMEOUTS.has(code)) || name === 'TimeoutError' || (signal.aborted && isTimeout(signal)))
    return `timed out after ${timeoutMs / 1000} s`;
  if (signal.aborted) return 'stopped: the service is shutting down';
  return `could not connect${code ? ` (${code})` : ''}`;
}

function isTimeout(signal: AbortSignal): boolean {
  return (signal.reason as { name?: string } | undefined)?.name === 'TimeoutError';
}
