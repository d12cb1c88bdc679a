// The HTTP runner for `api` and `url` checks: the check's request, its redirects
// followed to the final answer, the body decoded for assertions. Each request is
// a hop of its own (http-hop.ts) whose phases are marked by the request's own
// events (http-marks.ts); the run's phases are the hops' summed, as
// blackbox_exporter sums them. The rules are in docs/service.md, "The probe's rules".
import {
  TIMING_PHASES,
  type CheckResult,
  type ResultRedirect,
  type TimingPhase,
} from '../../api/schemas/index.js';
import type { CheckConfig, RunLocation } from '../config/schema.js';
import type { RunCheck, RunContext } from './types.js';
import { evaluateAssertions } from './assertions.js';
import { earliestExpiring } from './certificate.js';
import type { DecodedBody } from './http-body.js';
import { cutError, explain, statusText, type Stall } from './http-errors.js';
import { openHop, type Hop, type HopEnv, type HopRequest } from './http-hop.js';
import type { Marks } from './http-marks.js';
import { requestHeaders } from './http-headers.js';
import { probeOptions, type ProbeOptions } from './http-options.js';
import { chainError, followRequest, redirectOf } from './http-redirects.js';
import { finishResult, ms, namedError, startFrame, type Outcome } from './result.js';
import { deadline } from '../../domain/deadline.js';

/** One request of a run: the check's URL first, then each redirect's (a result's `redirects`). */
export type HopRecord = ResultRedirect;

/** A run's outcome, each request it made (the check's URL first), and the final body's decoded size. */
export interface HttpProbe {
  outcome: Outcome;
  hops: HopRecord[];
  /** The final body's decoded bytes, counted up to the options' count. */
  decodedSize?: number | undefined;
  /** The body decoded to more than the count: `decodedSize` is the count, not the whole. */
  decodedSizeCapped?: boolean | undefined;
}

export const runHttpCheck: RunCheck = async (_account, check, location, ctx, triggeredBy) => {
  const frame = startFrame(check, location, triggeredBy);
  const probe = await probeHttp(check, location, ctx);
  const result = finishResult(frame, probe.outcome);
  // The documented extensions (docs/api.md): each redirect followed, and the body's decoded size.
  if (probe.hops.length > 1) result.redirects = probe.hops.slice(0, -1);
  if (probe.decodedSize !== undefined && probe.outcome.response) {
    result.decodedSize = probe.decodedSize;
    if (probe.decodedSizeCapped) result.decodedSizeCapped = true;
  }
  return result;
};

interface Step {
  hop: Hop;
  url: URL;
}

export async function probeHttp(
  check: CheckConfig,
  location: Pick<RunLocation, 'id'>,
  ctx: RunContext,
  options: ProbeOptions = probeOptions(check, ctx),
): Promise<HttpProbe> {
  const url = new URL(check.target);
  // The target's credentials go as its authorization header (http-headers.ts), which a
  // stored result masks: every URL a result names (its request's, its hops') is without them.
  url.username = '';
  url.password = '';
  const headersFor = requestHeaders(check, location, options);
  let next: HopRequest = { url, method: check.method, headers: headersFor(url), body: check.body };
  const request: CheckResult['request'] = { ...next, url: url.href };
  const { signal, done } = deadline(ctx.signal, check.timeoutMs);
  const env: HopEnv = {
    signal,
    ctx,
    insecureTls: check.insecureTls,
    ca: options.ca,
    body: options.body,
    refuse: () => null,
  };
  const steps: Step[] = [];
  const visited = [url.href];
  try {
    for (;;) {
      const hop = await openHop(next, env);
      steps.push({ hop, url: next.url });
      if (steps.length === 1) env.refuse = privateGuard(hop.marks.address, options, () => next.url);
      if (!hop.res) {
        const error = explain(
          hop.error,
          check.timeoutMs,
          signal,
          stallOf(hop.marks, next.url),
          hop.marks.head,
        );
        const { timing, certificate } = summed(steps);
        const outcome: Outcome = { request, response: null, timing, assertions: [], error, certificate };
        return { outcome, hops: records(steps) };
      }
      const redirect = options.followRedirects
        ? redirectOf(hop.res.statusCode, header(hop.res.headers, 'location'), next.url)
        : null;
      const stop =
        redirect && 'to' in redirect
          ? chainError(visited, redirect.to.href, options.maxRedirects)
          : redirect?.error;
      if (redirect && 'to' in redirect && !stop) {
        hop.close();
        visited.push(redirect.to.href);
        next = followRequest(next, hop.res.statusCode, redirect.to, headersFor);
        continue;
      }
      return await answer(check, ctx, request, steps, signal, stop ?? undefined);
    }
  } finally {
    done();
    for (const { hop } of steps) hop.close();
  }
}

/** The outcome of the final answer: its body read to the end (or its cut), decoded, judged. */
async function answer(
  check: CheckConfig,
  ctx: RunContext,
  request: CheckResult['request'],
  steps: Step[],
  signal: AbortSignal,
  stop: Error | undefined,
): Promise<HttpProbe> {
  const { hop } = steps.at(-1)!;
  const res = hop.res!;
  const cut = await hop.readBody();
  const body: DecodedBody = (await hop.marks.body?.done()) ?? {
    text: '',
    size: 0,
    decodedSize: 0,
    counted: true,
  };
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers))
    if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
  const { timing, certificate, responseTime } = summed(steps);
  const response = {
    statusCode: res.statusCode,
    statusText: statusText(res.statusCode),
    headers,
    body: truncateUtf8(body.text, ctx.maxStoredBodyBytes),
    responseTime,
    size: body.size,
  };
  const timedOut = cut !== undefined && signal.aborted;
  const error =
    stop ??
    (timedOut ? explain(cut, check.timeoutMs, signal, undefined, undefined) : undefined) ??
    (cut !== undefined ? cutError(cut, body.size, headers['content-length']) : undefined) ??
    (body.decodeError ? namedError('DecodeError', `the body is ${body.decodeError}`) : undefined);
  const bodyMissing =
    cut !== undefined ? 'the body was cut' : body.decodeError ? 'the body could not be decoded' : undefined;
  const assertions = evaluateAssertions(check.assertions, {
    statusCode: res.statusCode,
    headers,
    body: body.text,
    responseTime,
    certificate: certificate ?? null,
    bodyMissing,
  });
  // With no assertions of its own, a check fails on an error status code.
  const statusError =
    check.assertions.length === 0 && res.statusCode >= 400
      ? namedError('HttpStatusError', `the server answered ${res.statusCode} ${response.statusText}`)
      : undefined;
  const outcome: Outcome = {
    request,
    response,
    assertions,
    error: error ?? statusError,
    timing,
    certificate,
  };
  return {
    outcome,
    hops: records(steps),
    decodedSize: body.decodedSize,
    decodedSizeCapped: !body.counted,
  };
}

/** A run's timing: each phase summed over its hops (a redirect's body is not read: no download). */
function summed(steps: Step[]): Pick<Outcome, 'timing' | 'certificate'> & { responseTime: number } {
  const timing: Partial<Record<TimingPhase, number>> = {};
  let responseTime = 0;
  steps.forEach(({ hop }, i) => {
    const last = i === steps.length - 1;
    const hopTiming = phases(hop.marks, last);
    for (const phase of TIMING_PHASES) {
      const took = hopTiming[phase];
      if (took !== undefined) timing[phase] = (timing[phase] ?? 0) + took;
    }
    const end = last ? (hop.marks.bodyEnd ?? hop.marks.headers) : hop.marks.headers;
    if (hop.marks.dnsStart !== undefined && end !== undefined) responseTime += end - hop.marks.dnsStart;
  });
  const certificate = earliestExpiring(steps.map(({ hop }) => hop.marks.certificate));
  return { timing, certificate, responseTime: Math.round(responseTime) };
}

/** The phase a request that got no answer stopped in, by its marks. */
function stallOf(m: Marks, url: URL): Stall {
  if (m.dnsStart !== undefined && m.dnsEnd === undefined) return { resolving: url.hostname };
  if (m.dnsEnd !== undefined && m.tcpEnd === undefined) return { waiting: 'connection' };
  if (url.protocol === 'https:' && m.tcpEnd !== undefined && m.tlsEnd === undefined)
    return { waiting: 'TLS handshake' };
  return undefined;
}

function records(steps: Step[]): HopRecord[] {
  return steps.map(({ hop, url }, i) => ({
    url: url.href,
    statusCode: hop.res?.statusCode ?? null,
    timing: phases(hop.marks, i === steps.length - 1),
  }));
}

function phases(m: Marks, withDownload: boolean): Partial<Record<TimingPhase, number>> {
  const t: Partial<Record<TimingPhase, number>> = {};
  if (m.dnsStart !== undefined && m.dnsEnd !== undefined) t.dns = ms(m.dnsStart, m.dnsEnd);
  if (m.dnsEnd !== undefined && m.tcpEnd !== undefined) t.tcp = ms(m.dnsEnd, m.tcpEnd);
  if (m.tcpEnd !== undefined && m.tlsEnd !== undefined) t.tls = ms(m.tcpEnd, m.tlsEnd);
  const sent = m.sent ?? m.tlsEnd ?? m.tcpEnd;
  if (sent !== undefined && m.headers !== undefined) t.firstByte = ms(sent, m.headers);
  if (withDownload && m.headers !== undefined && m.bodyEnd !== undefined)
    t.download = ms(m.headers, m.bodyEnd);
  return t;
}

/**
 * Why a redirect may not connect to an address: a target at a public address may not
 * lead the run into loopback, private or link-local ranges (169.254.169.254 is the
 * cloud's metadata service). A target inside such a range already may.
 */
function privateGuard(
  first: string | undefined,
  options: ProbeOptions,
  current: () => URL,
): (address: string) => string | null {
  if (options.allowPrivateRedirects || first === undefined || options.nonPublic(first) !== null)
    return () => null;
  return (address) => {
    const range = options.nonPublic(address);
    return range === null
      ? null
      : `the redirect to ${current().href} leads to a ${range} address (${address}), not followed from a public target`;
  };
}

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function truncateUtf8(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, 'utf8');
  return bytes.length <= maxBytes ? text : bytes.subarray(0, maxBytes).toString('utf8');
}
