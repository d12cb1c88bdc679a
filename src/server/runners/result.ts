// Building a CheckResult: what every runner shares.
import { randomUUID } from 'node:crypto';
import type { Assertion, CheckResult, ResultCertificate, Timing, Trigger } from '../../api/schemas/index.js';
import type { CheckConfig, RunLocation } from '../config/schema.js';

export interface RunFrame {
  check: CheckConfig;
  location: RunLocation;
  runId: string;
  triggeredBy: Trigger;
  startedAt: number; // epoch ms
  t0: number; // performance.now() at start
}

export function startFrame(
  check: CheckConfig,
  location: RunLocation,
  triggeredBy: Trigger,
  runId: string = randomUUID(),
): RunFrame {
  return { check, location, triggeredBy, runId, startedAt: Date.now(), t0: performance.now() };
}

export interface Outcome {
  request: CheckResult['request'];
  response: CheckResult['response'];
  timing: Omit<Timing, 'total'>;
  assertions: Assertion[];
  error?: Error | undefined;
  /** performance.now() when the measured work ended, if the runner did more after it (a browser settling). */
  endedAt?: number | undefined;
  /** Browser metrics, in the catalogue's units. */
  metrics?: Record<string, number> | undefined;
  /** The TLS certificate the run was shown (null: an HTTPS run shown none); absent for plain HTTP. */
  certificate?: ResultCertificate | null | undefined;
}

export function finishResult(frame: RunFrame, outcome: Outcome): CheckResult {
  const total = Math.round((outcome.endedAt ?? performance.now()) - frame.t0);
  const failedAssertion = outcome.assertions.some((a) => !a.passed);
  const result: CheckResult = {
    id: randomUUID(),
    checkId: frame.check.id,
    checkName: frame.check.name,
    checkType: frame.check.type,
    runId: frame.runId,
    status: outcome.error || failedAssertion ? 'failed' : 'success',
    startedAt: new Date(frame.startedAt).toISOString(),
    finishedAt: new Date(frame.startedAt + total).toISOString(),
    duration: total,
    location: { id: frame.location.id, name: frame.location.name, region: frame.location.region },
    request: outcome.request,
    response: outcome.response,
    assertions: outcome.assertions,
    timing: { ...outcome.timing, total },
    tags: frame.check.tags,
    triggeredBy: frame.triggeredBy,
  };
  if (outcome.metrics && Object.keys(outcome.metrics).length > 0) result.metrics = outcome.metrics;
  if (outcome.certificate) result.certificate = outcome.certificate;
  if (outcome.error) {
    result.error = {
      name: outcome.error.name,
      message: outcome.error.message,
      stack: outcome.error.stack ?? `${outcome.error.name}: ${outcome.error.message}`,
    };
  }
  return result;
}

/** A named error for a failure that is not a thrown exception (a missed heartbeat, a timeout). */
export function namedError(name: string, message: string): Error {
  const error = new Error(message);
  error.name = name;
  return error;
}

export const ms = (from: number, to: number) => Math.max(0, Math.round(to - from));

/** Names a socket-level failure by what went wrong, the same for every runner. */
export function networkError(e: Error): Error {
  const code = (e as { code?: string }).code;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return renamed(e, 'DNSError');
  if (code === 'ECONNREFUSED') return renamed(e, 'ConnectionRefusedError');
  if (code === 'ECONNRESET') return renamed(e, 'ConnectionResetError');
  if (code?.startsWith('ERR_TLS') || code?.includes('CERT')) return renamed(e, 'TLSError');
  // OpenSSL's own errors read "80FC…:error:0A00010B:SSL routines:…:ssl3_record.c:350:":
  // its reason alone says what went wrong.
  if (code?.startsWith('ERR_SSL_')) return renamed(e, 'TLSError', handshakeWords(e));
  return e;
}

function handshakeWords(e: Error): string {
  const reason = (e as { reason?: string }).reason ?? e.message;
  const hint = reason === 'wrong version number' ? ' (does the port speak plain HTTP?)' : '';
  return `the TLS handshake failed: ${reason}${hint}`;
}

function renamed(e: Error, name: string, message = e.message): Error {
  const copy = namedError(name, message);
  // Only the message: the frames of a socket error are Node's internals (TCPConnectWrap…).
  copy.stack = `${name}: ${message}`;
  return copy;
}
