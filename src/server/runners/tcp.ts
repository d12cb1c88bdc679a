// The TCP runner: resolve, connect, optionally send and wait for an expected reply.
import net from 'node:net';
import { StringDecoder } from 'node:string_decoder';
import type { RunCheck } from './types.js';
import { finishResult, ms, namedError, networkError, startFrame, type Outcome } from './result.js';
import { noAnswer, resolveWithin } from './resolve.js';
import { deadline } from '../../domain/deadline.js';

export function parseHostPort(target: string): { host: string; port: number } {
  const m = /^(?:tcp:\/\/)?(\[[^\]]+\]|[^:]+):(\d+)$/.exec(target.trim());
  if (!m) throw new Error(`"${target}" is not host:port`);
  return { host: m[1]!.replace(/^\[|\]$/g, ''), port: Number(m[2]) };
}

export const runTcpCheck: RunCheck = async (_account, check, location, ctx, triggeredBy) => {
  const frame = startFrame(check, location, triggeredBy);
  const request = { method: 'TCP', url: `tcp://${check.target}`, headers: {}, body: check.send ?? null };
  const timing: Outcome['timing'] = {};
  // The run's own timer, as the HTTP runner has (domain/deadline.ts): cleared when the
  // run ends, not a signal combined from AbortSignal.timeout that outlives it.
  const run = deadline(ctx.signal, check.timeoutMs);
  const { signal } = run;
  let error: Error | undefined;
  let reply = '';
  let host = check.target;
  try {
    const target = parseHostPort(check.target);
    host = target.host;
    const t0 = performance.now();
    const address = await resolveWithin(host, signal, ctx.lookup);
    const t1 = performance.now();
    timing.dns = ms(t0, t1);
    const socket = await connect(address, target.port, signal);
    timing.tcp = ms(t1, performance.now());
    try {
      if (check.send !== undefined || check.expect !== undefined)
        reply = await exchange(socket, check, signal);
    } finally {
      socket.destroy();
    }
    if (check.expect !== undefined && !reply.includes(check.expect)) {
      error = namedError(
        'UnexpectedReply',
        `expected "${check.expect}" in the reply, got "${reply.slice(0, 200)}"`,
      );
    }
  } catch (e) {
    error = signal.aborted
      ? namedError(
          'TimeoutError',
          timing.dns === undefined
            ? noAnswer(host, check.timeoutMs)
            : timing.tcp === undefined
              ? `no connection within ${check.timeoutMs} ms`
              : `no expected reply within ${check.timeoutMs} ms`,
        )
      : networkError(e as Error);
  } finally {
    run.done();
  }
  return finishResult(frame, { request, response: null, timing, assertions: [], error });
};

function connect(host: string, port: number, signal: AbortSignal): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port });
    const abort = () => socket.destroy(signal.reason as Error);
    signal.addEventListener('abort', abort, { once: true });
    socket.once('connect', () => (signal.removeEventListener('abort', abort), resolve(socket)));
    socket.once('error', (e) => (signal.removeEventListener('abort', abort), reject(e)));
  });
}

function exchange(socket: net.Socket, check: Parameters<RunCheck>[1], signal: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    let reply = '';
    // A character may arrive split between two reads: decoded across them, not each alone.
    const text = new StringDecoder('utf8');
    const done = () => resolve(reply);
    socket.on('data', (chunk: Buffer) => {
      reply += text.write(chunk);
      if (check.expect === undefined || reply.includes(check.expect)) done();
    });
    socket.once('end', done);
    socket.once('error', reject);
    signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
    if (check.send !== undefined) socket.write(check.send);
    if (check.expect === undefined) done();
  });
}
