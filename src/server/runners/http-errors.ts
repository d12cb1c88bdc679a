// What an HTTP run says went wrong, named by what happened rather than by the
// client library's words for its own state.
import { namedError, networkError } from './result.js';
import { MAX_HEADER_BYTES } from './http-options.js';
import { noAnswer } from './resolve.js';

/**
 * Where a request stopped before its answer: resolving this host, or waiting for its
 * connection or TLS handshake; undefined once it had them (waiting for the answer).
 */
export type Stall = { resolving: string } | { waiting: 'connection' | 'TLS handshake' } | undefined;

/**
 * The error of a request that stopped before its headers. `stall`: the phase it was
 * in, to name a timeout by it; `head`: the answer's head as received, to name what in
 * it is not HTTP.
 */
export function explain(
  error: unknown,
  timeoutMs: number,
  signal: AbortSignal,
  stall: Stall,
  head: Buffer | undefined,
): Error {
  if (signal.aborted && (signal.reason as Error | undefined)?.name === 'TimeoutError') {
    const message =
      stall === undefined
        ? `no complete response within ${timeoutMs} ms`
        : 'resolving' in stall
          ? noAnswer(stall.resolving, timeoutMs)
          : `no ${stall.waiting} within ${timeoutMs} ms`;
    return namedError('TimeoutError', message);
  }
  const e = error instanceof Error ? error : new Error(String(error));
  const code = (e as { code?: string }).code ?? '';
  // undici's parser reports a head it cannot read by whatever it tripped on next (a
  // control byte in a header value reads as "Response body length does not match
  // content-length header"): the head itself says what is wrong with it.
  const invalid = head ? invalidHead(head) : null;
  if (invalid) return namedError('ProtocolError', `the answer is not valid HTTP: ${invalid}`);
  if (code === 'UND_ERR_HEADERS_OVERFLOW')
    return namedError(
      'ProtocolError',
      `the answer's headers are larger than ${MAX_HEADER_BYTES / 1024} KiB, which Chrome refuses`,
    );
  // undici's parser errors carry no code (undici looks up llhttp's name by number, in a
  // table by name): they are known by their name, and said in llhttp's words alone.
  if (
    code.startsWith('HPE_') ||
    e.name === 'HTTPParserError' ||
    code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH'
  ) {
    const words = /^Response does not match the HTTP\/1\.1 protocol \((.*)\)$/s.exec(e.message)?.[1];
    return namedError('ProtocolError', `the answer is not valid HTTP: ${words ?? e.message}`);
  }
  return networkError(e);
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// A field value's bytes (RFC 9110 5.5): visible characters, space, tab and obs-text.
// eslint-disable-next-line no-control-regex
const NOT_FIELD_VALUE = /[\x00-\x08\x0a-\x1f\x7f]/;

/** What makes this head (status line and header lines) invalid HTTP, or null if nothing does. */
export function invalidHead(head: Buffer): string | null {
  const text = head.toString('latin1');
  const end = text.indexOf('\r\n\r\n');
  const lines = (end >= 0 ? text.slice(0, end) : text).split('\r\n');
  const status = lines.shift() ?? '';
  if (!/^HTTP\/\d\.\d \d{3}/.test(status)) return `invalid status line "${printable(status)}"`;
  // The last line of an unfinished head may be cut mid-way: judged only when complete.
  const complete = end >= 0 ? lines : lines.slice(0, -1);
  for (const line of complete) {
    const colon = line.indexOf(':');
    const name = colon < 0 ? line : line.slice(0, colon);
    if (colon < 0 || !TOKEN.test(name)) return `invalid header name "${printable(name)}"`;
    if (NOT_FIELD_VALUE.test(line.slice(colon + 1))) return `invalid header value in ${name}`;
  }
  return null;
}

/** A text from the network, safe to put in a message: control bytes shown as \xNN, at most 80 characters. */
function printable(text: string): string {
  return text.slice(0, 80).replace(CONTROL, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x1f\x7f]/g;

/** The error of a body cut short: how much came, of how much announced, and why it stopped. */
export function cutError(error: unknown, received: number, announced: string | undefined): Error {
  const code = (error as { code?: string } | undefined)?.code;
  const why = code === 'ECONNRESET' ? 'connection reset' : 'connection closed';
  const length = announced === undefined ? NaN : Number(announced);
  const of = Number.isFinite(length) ? ` of ${length.toLocaleString('en-US')}` : '';
  return namedError(
    'BodyCutError',
    `the body was cut after ${received.toLocaleString('en-US')}${of} bytes (${why})`,
  );
}

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  204: 'No Content',
  301: 'Moved Permanently',
  302: 'Found',
  303: 'See Other',
  304: 'Not Modified',
  307: 'Temporary Redirect',
  308: 'Permanent Redirect',
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

export function statusText(code: number): string {
  return STATUS_TEXT[code] ?? '';
}
