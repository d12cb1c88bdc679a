// The HTTP runner for `api` and `url` checks: one real request over a fresh
// connection, so every phase is measured, not estimated. We resolve the name
// and open the socket ourselves (undici's `connect` hook) to time dns, tcp and
// tls separately; firstByte runs from the moment the connection is handed to
// undici (it writes the request at once) to the response headers.
import diagnostics from 'node:diagnostics_channel';
import net from 'node:net';
import tls from 'node:tls';
import { Client, type buildConnector, type Dispatcher } from 'undici';
import type { CheckResult, ResultCertificate } from '../../api/schemas/index.js';
import type { RunCheck, RunContext } from './types.js';
import { evaluateAssertions } from './assertions.js';
import { certificateOf, verifyError } from './certificate.js';
import { finishResult, ms, namedError, networkError, startFrame, type Outcome } from './result.js';
import { noAnswer, resolveWithin } from './resolve.js';

interface Marks {
  sent?: number;
  dnsStart?: number;
  dnsEnd?: number;
  tcpEnd?: number;
  tlsEnd?: number;
  headers?: number;
  bodyEnd?: number;
  /** The certificate the TLS handshake was shown, verified or not. */
  certificate?: ResultCertificate | null;
}

// firstByte starts when undici has written the request headers, which it
// reports on this channel with the socket it used, and ends when it has parsed
// the response's headers, which it reports on another at that very moment. The
// request's promise settles later: after the rest of that read is parsed (the
// body, the end of the message, the socket closed with an error whose stack is
// formatted) and the microtasks before ours, and a scavenge that allocation set
// off fell inside firstByte. At 10,000 checks that was part of the error's tail
// in bench:service honesty.
const bySocket = new WeakMap<object, Marks>();
const byRequest = new WeakMap<object, Marks>();
diagnostics.subscribe('undici:client:sendHeaders', (message) => {
  const { socket, request } = message as { socket: object; request: object };
  const marks = bySocket.get(socket);
  if (marks && marks.sent === undefined) {
    marks.sent = performance.now();
    byRequest.set(request, marks);
  }
});
diagnostics.subscribe('undici:request:headers', (message) => {
  const { request, response } = message as { request: object; response: { statusCode: number } };
  const marks = byRequest.get(request);
  if (marks && marks.headers === undefined && response.statusCode >= 200) marks.headers = performance.now();
});

// A run's client and its connection are closed with this error, made once: undici
// makes a new one for each client destroyed without one, and for each connection it
// closes itself (a `connection: close` request, as with pipelining 0, is closed so),
// and Node formats each one's stack as the socket goes. At 10,000 checks those were a
// tenth of a run worker's CPU (a profile of bench:service honesty). The connection
// is the run's alone either way: a client per run, destroyed when it is over.
const FINISHED = new Error('the run is over');

/** Bodies are read this far for assertions, whatever is stored. */
const ASSERTION_BODY_BYTES = 1024 * 1024;

export const runHttpCheck: RunCheck = async (_account, check, location, ctx, triggeredBy) => {
  const frame = startFrame(check, location, triggeredBy);
  const url = new URL(check.target);
  const headers = { 'user-agent': 'checkwall/0.1', 'x-checkwall-location': location.id, ...check.headers };
  const request: CheckResult['request'] = { method: check.method, url: url.href, headers, body: check.body };
  const marks: Marks = {};
  const { signal, done } = runSignal(ctx.signal, check.timeoutMs);
  const client = new Client(url.origin, {
    connect: connector(marks, check.insecureTls, signal, ctx),
    // The run's signal times it out (runSignal). undici's own timeouts keep a timer, and
    // through it the client and its socket, until the next half-second tick of its timer
    // wheel: long enough to outlive a scavenge and be promoted.
    headersTimeout: 0,
    bodyTimeout: 0,
  });
  let outcome: Outcome;
  try {
    const res = await client.request({
      path: url.pathname + url.search,
      method: check.method as Dispatcher.HttpMethod,
      headers,
      body: check.body ?? undefined,
      signal,
    });
    marks.headers ??= performance.now();
    const { text, size } = await readCapped(res.body, Math.max(ctx.maxStoredBodyBytes, ASSERTION_BODY_BYTES));
    marks.bodyEnd = performance.now();
    outcome = respond(check, request, res, text, size, marks);
    if (outcome.response) outcome.response.body = truncateUtf8(text, ctx.maxStoredBodyBytes);
  } catch (error) {
    outcome = {
      request,
      response: null,
      timing: phases(marks),
      assertions: [],
      error: explain(error, check.timeoutMs, signal, resolving(marks, url)),
      certificate: marks.certificate,
    };
  } finally {
    done();
    client.destroy(FINISHED).catch(() => undefined);
  }
  return finishResult(frame, outcome);
};

function respond(
  check: Parameters<RunCheck>[1],
  request: CheckResult['request'],
  res: Dispatcher.ResponseData,
  body: string,
  size: number,
  marks: Marks,
): Outcome {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers))
    if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
  const timing = phases(marks);
  const responseTime = Math.round((marks.bodyEnd ?? 0) - (marks.dnsStart ?? 0));
  const response = {
    statusCode: res.statusCode,
    statusText: statusText(res.statusCode),
    headers,
    body,
    responseTime,
    size,
  };
  const assertions = evaluateAssertions(check.assertions, {
    statusCode: res.statusCode,
    headers,
    body,
    responseTime,
    certificate: marks.certificate ?? null,
  });
  // With no assertions of its own, a check fails on an error status code.
  const error =
    check.assertions.length === 0 && res.statusCode >= 400
      ? namedError('HttpStatusError', `the server answered ${res.statusCode} ${response.statusText}`)
      : undefined;
  return { request, response, timing, assertions, error, certificate: marks.certificate };
}

function phases(m: Marks): Outcome['timing'] {
  const t: Outcome['timing'] = {};
  if (m.dnsStart !== undefined && m.dnsEnd !== undefined) t.dns = ms(m.dnsStart, m.dnsEnd);
  if (m.dnsEnd !== undefined && m.tcpEnd !== undefined) t.tcp = ms(m.dnsEnd, m.tcpEnd);
  if (m.tcpEnd !== undefined && m.tlsEnd !== undefined) t.tls = ms(m.tcpEnd, m.tlsEnd);
  const sent = m.sent ?? m.tlsEnd ?? m.tcpEnd;
  if (sent !== undefined && m.headers !== undefined) t.firstByte = ms(sent, m.headers);
  if (m.headers !== undefined && m.bodyEnd !== undefined) t.download = ms(m.headers, m.bodyEnd);
  return t;
}

/**
 * The run's signal: aborted with the service's (stopping) or after `timeoutMs` (a
 * TimeoutError). Not AbortSignal.timeout: its timer, and the signals hanging on it,
 * lived the whole timeout (30 s by default) after each run, so each run worker
 * promoted them to its old generation for full collections (10-30 ms pauses that a
 * measurement in flight waits behind) to clear. Measured apart over 1,300 runs
 * (V8's sampling heap profiler, counting what full collections cleared), with the
 * timers above and the error made once: 22.9 MB promoted and then collected before,
 * 17.3 MB after.
 */
export function runSignal(outer: AbortSignal, timeoutMs: number): { signal: AbortSignal; done(): void } {
  const controller = new AbortController();
  const stop = () => controller.abort(outer.reason);
  const timer = setTimeout(
    () => controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')),
    timeoutMs,
  );
  if (outer.aborted) stop();
  else outer.addEventListener('abort', stop, { once: true });
  return {
    signal: controller.signal,
    done() {
      clearTimeout(timer);
      outer.removeEventListener('abort', stop);
    },
  };
}

function connector(
  marks: Marks,
  insecure: boolean,
  signal: AbortSignal,
  ctx: Pick<RunContext, 'now' | 'lookup'>,
): buildConnector.connector {
  return (opts, callback) => {
    const host = opts.hostname.replace(/^\[|\]$/g, '');
    const https = opts.protocol === 'https:';
    const port = Number(opts.port) || (https ? 443 : 80);
    marks.dnsStart = performance.now();
    resolveWithin(host, signal, ctx.lookup)
      .then((address) => {
        marks.dnsEnd = performance.now();
        const socket = net.connect({ host: address, port });
        const fail = (error: Error) => callback(error, null);
        socket.once('error', fail);
        socket.once('connect', () => {
          marks.tcpEnd = performance.now();
          if (!https) {
            socket.off('error', fail);
            bySocket.set(socket, marks);
            return callback(null, socket);
          }
          const secure = tls.connect({
            socket,
            servername: net.isIP(host) ? undefined : (opts.servername ?? host),
            // Verified below, after the certificate is read: a socket Node rejects
            // itself has dropped the certificate by the time it reports why.
            rejectUnauthorized: false,
            ALPNProtocols: ['http/1.1'],
          });
          secure.once('error', fail);
          secure.once('secureConnect', () => {
            marks.tlsEnd = performance.now();
            const peer = secure.getPeerCertificate(true);
            marks.certificate = certificateOf(peer, ctx.now());
            if (!insecure && !secure.authorized) {
              const code = String(secure.authorizationError ?? 'UNABLE_TO_VERIFY_LEAF_SIGNATURE');
              secure.destroy();
              return fail(verifyError(code, peer, ctx.now()));
            }
            secure.off('error', fail);
            bySocket.set(secure, marks);
            callback(null, secure);
          });
        });
      })
      .catch((error: Error) => callback(error, null));
  };
}

async function readCapped(
  body: Dispatcher.ResponseData['body'],
  cap: number,
): Promise<{ text: string; size: number }> {
  const kept: Buffer[] = [];
  let size = 0;
  let keptBytes = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (keptBytes < cap) {
      const part = chunk.subarray(0, cap - keptBytes);
      kept.push(part);
      keptBytes += part.length;
    }
  }
  return { text: Buffer.concat(kept).toString('utf8'), size };
}

function truncateUtf8(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, 'utf8');
  return bytes.length <= maxBytes ? text : bytes.subarray(0, maxBytes).toString('utf8');
}

/** The host the run is waiting on the resolver for, if it is. */
function resolving(marks: Marks, url: URL): string | undefined {
  return marks.dnsStart !== undefined && marks.dnsEnd === undefined ? url.hostname : undefined;
}

/** `unresolved`: the host the run was still resolving when it stopped, if it was. */
function explain(error: unknown, timeoutMs: number, signal: AbortSignal, unresolved?: string): Error {
  if (signal.aborted && (signal.reason as Error | undefined)?.name === 'TimeoutError') {
    const message =
      unresolved === undefined
        ? `no complete response within ${timeoutMs} ms`
        : noAnswer(unresolved, timeoutMs);
    return namedError('TimeoutError', message);
  }
  const e = error instanceof Error ? error : new Error(String(error));
  const code = (e as { code?: string }).code;
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return namedError('TimeoutError', `no complete response within ${timeoutMs} ms`);
  }
  return networkError(e);
}

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  204: 'No Content',
  301: 'Moved Permanently',
  302: 'Found',
  304: 'Not Modified',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

function statusText(code: number): string {
  return STATUS_TEXT[code] ?? '';
}
