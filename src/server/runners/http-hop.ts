// One request of a run (the run's first, or a redirect's) over a fresh
// connection, so every phase is measured, not estimated. We resolve the name and
// open the socket ourselves (undici's `connect` hook) to time dns, tcp and tls
// apart, and to verify the certificate against the target's own host.
import net from 'node:net';
import tls from 'node:tls';
import type { IncomingHttpHeaders } from 'node:http';
import { Client, errors, type buildConnector, type Dispatcher } from 'undici';
import type { RunContext } from './types.js';
import { createBodySink, type BodyLimits } from './http-body.js';
import { skipContinues } from './http-interim.js';
import { markSocket, type Marks } from './http-marks.js';
import { certificateOf, hostError, verifyError } from './certificate.js';
import { MAX_HEADER_BYTES } from './http-options.js';
import { namedError } from './result.js';
import { resolveWithin } from './resolve.js';

export interface HopRequest {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: string | null;
}

export interface HopEnv {
  signal: AbortSignal;
  ctx: Pick<RunContext, 'now' | 'lookup'>;
  insecureTls: boolean;
  ca: string | undefined;
  body: BodyLimits;
  /** Why the socket may not connect to this address (a redirect into a private range), or null. */
  refuse(address: string): string | null;
}

/** The answer's status and headers. */
export interface HopResponse {
  statusCode: number;
  headers: IncomingHttpHeaders;
}

export interface Hop {
  marks: Marks;
  /** The answer's status and headers, when they came. */
  res?: HopResponse;
  /** What stopped the request before its headers. */
  error?: unknown;
  /** Reads the body to its end; resolves with the error that cut it, if one did. */
  readBody(): Promise<unknown>;
  /** Closes the connection (a redirect's body is not read). */
  close(): void;
}

// A run's client and its connection are closed with this error, made once: undici
// makes a new one for each client destroyed without one, and for each connection it
// closes itself (a `connection: close` request, as with pipelining 0, is closed so),
// and Node formats each one's stack as the socket goes: a tenth of a run worker's CPU
// at 10,000 checks (BENCHMARKS.md, bench:service honesty). The connection is the
// hop's alone either way: a client per hop, destroyed when it is over.
const FINISHED = new Error('the run is over');

export async function openHop(req: HopRequest, env: HopEnv): Promise<Hop> {
  const marks: Marks = { sink: (encoding) => createBodySink(encoding, env.body) };
  const client = new Client(req.url.origin, {
    connect: connector(marks, env),
    maxHeaderSize: MAX_HEADER_BYTES,
    // The run's signal times it out (http.ts). undici's own timeouts keep a timer, and
    // through it the client and its socket, until the next half-second tick of its timer
    // wheel: long enough to outlive a scavenge and be promoted.
    headersTimeout: 0,
    bodyTimeout: 0,
  });
  const close = () => void client.destroy(FINISHED).catch(() => undefined);
  const answer = exchange(client, req, env.signal);
  try {
    const res = await answer.head;
    marks.headers ??= performance.now();
    const readBody = async () => {
      const cut = await answer.end;
      marks.bodyEnd ??= performance.now();
      return cut;
    };
    return { marks, res, readBody, close };
  } catch (error) {
    return { marks, error, readBody: () => Promise.resolve(undefined), close };
  }
}

/**
 * One request on the client, told by undici's handler: the answer's head, and its end
 * (the error that cut the body, if one did). The body is read as undici parses it, by
 * the marks' sink (http-marks.ts), so nothing here buffers or streams it: a handler, not
 * `client.request`, whose body stream and async resource cost a cool run about 6 % of its
 * CPU (BENCHMARKS.md, bench:run-cost; nothing measurable once V8 has optimised the path).
 */
function exchange(client: Client, req: HopRequest, signal: AbortSignal) {
  let headOf!: (head: HopResponse) => void;
  let failed!: (error: unknown) => void;
  let ended!: (cut: unknown) => void;
  const head = new Promise<HopResponse>((resolve, reject) => ((headOf = resolve), (failed = reject)));
  const end = new Promise<unknown>((resolve) => (ended = resolve));
  let controller: Dispatcher.DispatchController | undefined;
  let headed = false;
  // As client.request reads a signal: its reason, else undici's own error for an abort.
  const reason = () => (signal.reason as Error | undefined) ?? new errors.RequestAbortedError();
  const abort = () => controller?.abort(reason());
  signal.addEventListener('abort', abort, { once: true });
  const over = (cut: unknown) => {
    signal.removeEventListener('abort', abort);
    if (headed) ended(cut);
    else failed(cut);
  };
  client.dispatch(
    {
      path: req.url.pathname + req.url.search,
      method: req.method as Dispatcher.HttpMethod,
      headers: req.headers,
      body: req.body ?? undefined,
    },
    {
      onRequestStart(c) {
        controller = c;
        if (signal.aborted) c.abort(reason());
      },
      onResponseStart(_c, statusCode, headers) {
        // A 1xx before the answer (a 103) is not the answer.
        if (statusCode < 200 || headed) return;
        headed = true;
        headOf({ statusCode, headers });
      },
      onResponseData() {},
      onResponseEnd: () => over(undefined),
      onResponseError: (_c, error) => over(error),
    },
  );
  return { head, end };
}

function connector(marks: Marks, env: HopEnv): buildConnector.connector {
  return (opts, answer) => {
    // A socket and the TLS socket over it may both report one failure: undici is told once.
    let told = false;
    const callback: typeof answer = (...args: Parameters<typeof answer>) => {
      if (told) return;
      told = true;
      env.signal.removeEventListener('abort', abort);
      answer(...args);
    };
    const host = opts.hostname.replace(/^\[|\]$/g, '');
    const https = opts.protocol === 'https:';
    const port = Number(opts.port) || (https ? 443 : 80);
    const fail = (error: Error) => callback(error, null);
    // undici heeds a request's signal only once it has a connection: a connect or a TLS
    // handshake that never ends would hold the run past its timeout, for ever.
    const opened: net.Socket[] = [];
    const abort = () => {
      for (const socket of opened) socket.destroy();
      fail(env.signal.reason as Error);
    };
    env.signal.addEventListener('abort', abort, { once: true });
    marks.dnsStart = performance.now();
    resolveWithin(host, env.signal, env.ctx.lookup)
      .then((address) => {
        marks.dnsEnd = performance.now();
        marks.address = address;
        const refused = env.refuse(address);
        if (refused) return fail(namedError('RedirectError', refused));
        const socket = net.connect({ host: address, port });
        opened.push(socket);
        socket.once('error', fail);
        socket.once('connect', () => {
          marks.tcpEnd = performance.now();
          if (!https) {
            socket.off('error', fail);
            skipContinues(socket);
            markSocket(socket, marks);
            return callback(null, socket);
          }
          opened.push(handshake(socket, host, marks, env, callback, fail));
        });
      })
      .catch(fail);
  };
}

function handshake(
  socket: net.Socket,
  host: string,
  marks: Marks,
  env: HopEnv,
  callback: Parameters<buildConnector.connector>[1],
  fail: (error: Error) => void,
): tls.TLSSocket {
  const secure = tls.connect({
    socket,
    // RFC 6066 forbids an IP address as the server name, and a name's trailing dot: none
    // is sent for an IP target, a name without its dot (as Go sends it); the host is
    // checked below, against the target's own host either way.
    servername: net.isIP(host) ? undefined : host.replace(/\.$/, ''),
    ca: env.ca,
    // Verified below, after the certificate is read: a socket Node rejects itself has
    // dropped the certificate by the time it reports why; and Node checks the name of a
    // socket given no server name against "localhost", not the target.
    rejectUnauthorized: false,
    checkServerIdentity: () => undefined,
    ALPNProtocols: ['http/1.1'],
  });
  secure.once('error', fail);
  secure.once('secureConnect', () => {
    marks.tlsEnd = performance.now();
    const peer = secure.getPeerCertificate(true);
    const now = env.ctx.now();
    marks.certificate = certificateOf(peer, now);
    const error = env.insecureTls
      ? null
      : !secure.authorized
        ? verifyError(String(secure.authorizationError ?? 'UNABLE_TO_VERIFY_LEAF_SIGNATURE'), peer, now)
        : hostError(host, peer);
    if (error) {
      secure.destroy();
      return fail(error);
    }
    secure.off('error', fail);
    socket.off('error', fail);
    skipContinues(secure);
    markSocket(secure, marks);
    callback(null, secure);
  });
  return secure;
}
