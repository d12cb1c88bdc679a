// The instants of one request (one hop of a run), taken from the request's own
// events. dns, tcp and tls are marked by the connector (http-hop.ts), which opens
// the socket itself; the rest by undici's diagnostics channels, at the moment
// undici writes, parses and ends, never when a promise of ours settles later.
//
// firstByte starts when undici has written the request headers, which it reports
// on one channel with the socket it used, and ends when it has parsed the
// response's headers, which it reports on another at that very moment. The
// request's promise settles later: after the rest of that read is parsed (the
// body, the end of the message, the socket closed with an error whose stack is
// formatted) and the microtasks before ours, and a scavenge that allocation set
// off fell inside firstByte (BENCHMARKS.md, bench:service honesty). download ends
// when undici has parsed the end of the body (the trailers channel, published on
// completion even without trailers) or the error that cut it, so decoding the
// body and evaluating assertions stay outside every phase.
import diagnostics from 'node:diagnostics_channel';
import type { ResultCertificate } from '../../api/schemas/index.js';
import type { BodySink } from './http-body.js';

export interface Marks {
  dnsStart?: number;
  dnsEnd?: number;
  tcpEnd?: number;
  tlsEnd?: number;
  sent?: number;
  headers?: number;
  bodyEnd?: number;
  /** The address the socket connected to. */
  address?: string;
  /** The certificate the TLS handshake was shown, verified or not. */
  certificate?: ResultCertificate | null;
  /** The response's head as received, kept to name what made it invalid HTTP. */
  head?: Buffer;
  /** Made when the response's headers are parsed; counts and decodes the body as undici parses it. */
  body?: BodySink;
  /** Makes `body` from the response's content-encoding. */
  sink(encoding: string | undefined): BodySink;
}

const bySocket = new WeakMap<object, Marks>();
const byRequest = new WeakMap<object, Marks>();

/** Marks this socket's request; called by the connector as it hands the socket to undici. */
export function markSocket(socket: object, marks: Marks): void {
  bySocket.set(socket, marks);
}

/** Beyond this, a head is not kept: the parser has failed on it, or accepted it, long before. */
const HEAD_BYTES = 64 * 1024;

function keepHead(socket: NodeJS.ReadableStream, marks: Marks): void {
  // undici reads the socket on 'readable'; a 'data' listener beside it is told of each
  // read and never changes the flow (node:stream: 'readable' takes precedence).
  const tap = (chunk: Buffer) => {
    marks.head = marks.head ? Buffer.concat([marks.head, chunk]) : chunk;
    if (marks.head.length >= HEAD_BYTES || marks.head.includes('\r\n\r\n')) socket.off('data', tap);
  };
  socket.on('data', tap);
}

diagnostics.subscribe('undici:client:sendHeaders', (message) => {
  const { socket, request } = message as { socket: NodeJS.ReadableStream; request: object };
  const marks = bySocket.get(socket);
  if (marks && marks.sent === undefined) {
    marks.sent = performance.now();
    byRequest.set(request, marks);
    keepHead(socket, marks);
  }
});

diagnostics.subscribe('undici:request:headers', (message) => {
  const { request, response } = message as {
    request: object;
    response: { statusCode: number; headers: Buffer[] };
  };
  const marks = byRequest.get(request);
  if (!marks || marks.headers !== undefined || response.statusCode < 200) return;
  marks.headers = performance.now();
  marks.body = marks.sink(contentEncoding(response.headers));
});

diagnostics.subscribe('undici:request:bodyChunkReceived', (message) => {
  const { request, chunk } = message as { request: object; chunk: Buffer };
  byRequest.get(request)?.body?.write(chunk);
});

const ended = (message: unknown) => {
  const marks = byRequest.get((message as { request: object }).request);
  if (marks && marks.headers !== undefined) marks.bodyEnd ??= performance.now();
};
diagnostics.subscribe('undici:request:trailers', ended);
diagnostics.subscribe('undici:request:error', ended);

/** The content-encoding of undici's raw header list ([name, value, name, value…]). */
function contentEncoding(raw: Buffer[]): string | undefined {
  for (let i = 0; i + 1 < raw.length; i += 2)
    if (raw[i]!.toString('latin1').toLowerCase() === 'content-encoding')
      return raw[i + 1]!.toString('latin1');
  return undefined;
}
