// One POST of `checkwall runner` to the service (remote-client.ts), and what it reads of
// the answer. undici's request over kept-alive connections: fetch's web streams cost a
// runner dearly (BENCHMARKS.md, "Storage, runners, HTTP").
import { request, type Dispatcher } from 'undici';
import { RunnerClaimAnswerSchema, type RunnerJob } from '../../api/schemas/runner.js';
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

const NOT_OURS = 'from something that is not a checkwall service: is --service its address?';

/** The error of an answer that is not 2xx: the service's message, or that it was not the service's. */
export async function failure(res: Answer): Promise<Error> {
  const said = await message(res);
  // No message of ours: something else answers there (a proxy's page, a wrong --service).
  return new Error(
    said === `HTTP ${res.status}` ? `HTTP ${res.status} ${NOT_OURS}` : `HTTP ${res.status}: ${said}`,
  );
}

/** The jobs of a claim's answer (its body read as JSON, undefined when it was not JSON). */
export function jobsOf(body: unknown): RunnerJob[] {
  const answer = RunnerClaimAnswerSchema.safeParse(body);
  if (!answer.success) throw new Error(`an answer ${NOT_OURS}`);
  return answer.data.data.jobs;
}

/**
 * Why a request to the service failed, for the runner's line. Not every `code` is a string:
 * a post's clock aborts it with a DOMException (code 23), and sanitizing that number threw
 * in the loop's catch, ending the runner at the first service that did not answer in time.
 */
export function lostReason(error: unknown): string {
  const e = error as { code?: unknown; message?: unknown; cause?: { code?: unknown; message?: unknown } };
  const said = [e.cause?.code, e.cause?.message, e.code, e.message].find((s) => typeof s === 'string');
  if (typeof said !== 'string') return sanitize(String(error));
  const meaning =
    MEANINGS[said] ?? (TLS_CODE.test(said) ? 'its TLS certificate is not trusted here' : undefined);
  return sanitize(meaning ? `${meaning}: ${said}` : said);
}

// The commonest codes in words, said with the code: whoever reads the line may not know them.
const MEANINGS: Record<string, string> = {
  ENOTFOUND: 'its host name does not resolve',
  EAI_AGAIN: 'its host name could not be resolved just now',
  ECONNREFUSED: 'nothing listens at its address',
  ECONNRESET: 'the connection was cut',
  ETIMEDOUT: 'no answer to connect',
  UND_ERR_CONNECT_TIMEOUT: 'no answer to connect',
};
const TLS_CODE = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|^ERR_TLS|^ERR_SSL/;
