// One POST of `checkwall runner` to the service (remote-client.ts), and what it reads of
// the answer. undici's request over kept-alive connections: fetch's web streams cost a
// runner dearly (BENCHMARKS.md, "Storage, runners, HTTP").
import { request, type Dispatcher } from 'undici';
import type { Deadline } from '../../domain/deadline.js';
import { sanitize } from '../../domain/sanitize.js';

/** What the runner reads of an answer of the service. */
export interface Answer {
  status: number;
  ok: boolean;
  json(): Promise<unknown>;
  /** Reads the body to its end unread, so the connection is kept. */
  discard(): Promise<unknown>;
}

/**
 * Posts `body` as JSON under `clock` (domain/deadline.ts: not AbortSignal.any, whose timeout
 * a collection could take, leaving a post to a silent service unbounded). The answer's body
 * is read under the same clock, which ends once it is read; one left unread is cut when the
 * clock runs out.
 */
export async function postJson(
  url: string,
  body: unknown,
  opts: { headers: Record<string, string>; dispatcher: Dispatcher; clock: Deadline },
): Promise<Answer> {
  const { clock } = opts;
  const res = await request(url, {
    method: 'POST',
    headers: opts.headers,
    body: JSON.stringify(body),
    signal: clock.signal,
    dispatcher: opts.dispatcher,
  }).catch((error: unknown) => {
    clock.done();
    throw error;
  });
  return {
    status: res.statusCode,
    ok: res.statusCode >= 200 && res.statusCode < 300,
    json: () => res.body.json().finally(clock.done),
    discard: () => res.body.dump().finally(clock.done),
  };
}

/** The service's message, for a terminal or a log: a hostile service's escape sequences go. */
export async function message(res: Answer): Promise<string> {
  try {
    const body = (await res.json()) as { message?: unknown };
    return typeof body.message === 'string' ? sanitize(body.message) : `HTTP ${res.status}`;
  } catch {
    return `HTTP ${res.status}`;
  }
}
