// The runner for `browser` and `multistep` checks: load the target in a fresh
// page of the service's Chromium, (multistep) walk the steps, then read what
// the page measured. Every failure, a timeout included, is a failed result.
import type { CheckResult } from '../../api/schemas.js';
import type { CheckConfig, LocationConfig } from '../config-schema.js';
import type { RunCheck, RunContext } from '../contracts.js';
import { evaluateAssertions } from './assertions.js';
import { navigationPhases, sampleMetrics, SAMPLE_SCRIPT, type PageSample } from './browser-metrics.js';
import { watchPage, type Navigation, type PageWatch } from './browser-page.js';
import { within, type BrowserPool, type Page } from './browser-pool.js';
import { runSteps, stepLabel, type Progress } from './browser-steps.js';
import { finishResult, namedError, startFrame, type Outcome, type RunFrame } from './result.js';

/** After the load event (or the last step) the network may settle this long; it is not timed. */
const SETTLE_MS = 1_000;
/** A journey's first step waits this long at most for the page's first paint. */
const PAINT_WAIT_MS = 2_000;
/** Preparing a page and reading it back are quick; this bounds a browser that stopped answering. */
const SETUP_MS = 10_000;

export function createBrowserRunner(pool: BrowserPool): RunCheck {
  return async (_account, check, location, ctx, triggeredBy) => {
    const frame = startFrame(check, location, triggeredBy);
    let outcome: Outcome;
    try {
      outcome = await pool.withPage(ctx.signal, (page) => visit(page, frame, ctx));
    } catch (error) {
      // The browser could not give us a page (not started, crashed, stopping).
      const e = error instanceof Error ? error : new Error(String(error));
      outcome = failed(plannedRequest(check, location), namedError('BrowserError', e.message));
    }
    return finishResult(frame, outcome);
  };
}

async function visit(page: Page, frame: RunFrame, ctx: RunContext): Promise<Outcome> {
  const { check, location } = frame;
  const setup = { headers: extraHeaders(check, location), insecureTls: check.insecureTls };
  const watch = await within(watchPage(page, setup), SETUP_MS, 'preparing the page');
  try {
    // The clock starts now: launching the browser and opening the page are ours, not the target's.
    frame.startedAt = Date.now();
    frame.t0 = performance.now();
    const timeout = AbortSignal.timeout(check.timeoutMs);
    const signal = AbortSignal.any([ctx.signal, timeout]);
    const progress: Progress = { waitingFor: `${check.target} did not finish loading` };
    let nav: Navigation | undefined;
    let stepError: Error | undefined;
    try {
      await abortable(
        (async () => {
          nav = await watch.navigate(check.target, signal);
          if (check.type !== 'multistep') return;
          // As a visitor would, see the page before touching it: input stops the paint metrics.
          await watch.painted(PAINT_WAIT_MS);
          await runSteps(check.steps ?? [], { page, watch, signal, progress });
        })(),
        signal,
      );
    } catch (error) {
      const e = timeout.aborted ? timedOut(progress, check.timeoutMs) : (error as Error);
      // A step that failed left a page worth measuring; a timeout may have left a hung one.
      if (!nav || timeout.aborted || ctx.signal.aborted || e.name !== 'StepFailed')
        return failed(watch.lastRequest() ?? plannedRequest(check, location), e);
      stepError = e;
    }
    const endedAt = performance.now();
    const loaded = nav as Navigation | undefined; // assigned in the closure above
    if (!loaded)
      return failed(plannedRequest(check, location), namedError('NavigationError', 'nothing loaded'));
    await watch.settle(SETTLE_MS, signal);
    const outcome = await within(measure(watch, loaded, frame, ctx, endedAt), SETUP_MS, 'reading the page');
    return stepError ? { ...outcome, error: stepError } : outcome;
  } finally {
    watch.dispose();
  }
}

async function measure(
  watch: PageWatch,
  nav: Navigation,
  frame: RunFrame,
  ctx: RunContext,
  endedAt: number,
): Promise<Outcome> {
  const { check, location } = frame;
  const sample = await watch.evaluate<PageSample>(SAMPLE_SCRIPT);
  const body = await watch.body(nav.loaderId);
  const timing = sample.nav ? navigationPhases(sample.nav, check.target.startsWith('https:')) : {};
  const responseTime = Math.round(sample.nav?.responseEnd ?? 0);
  const size = sample.nav?.encodedBodySize ?? Buffer.byteLength(body);
  const response = nav.response
    ? toResponse(nav, capUtf8(body, ctx.maxStoredBodyBytes), responseTime, size)
    : null;
  const status = response?.statusCode ?? 0;
  // TEXT_BODY and JSON_BODY look at the rendered page, what a visitor reads.
  const assertions = evaluateAssertions(check.assertions, {
    statusCode: status,
    headers: response?.headers ?? {},
    body: sample.text,
    responseTime,
  });
  const error =
    check.assertions.length === 0 && status >= 400
      ? namedError('HttpStatusError', `the server answered ${status} ${response?.statusText ?? ''}`.trim())
      : undefined;
  return {
    request: toRequest(nav.request ?? plannedRequest(check, location)),
    response,
    timing,
    assertions,
    error,
    endedAt,
    metrics: sampleMetrics(sample),
  };
}

function toResponse(
  nav: Navigation,
  body: string,
  responseTime: number,
  size: number,
): CheckResult['response'] {
  const r = nav.response!;
  return { statusCode: r.status, statusText: r.statusText, headers: r.headers, body, responseTime, size };
}

const toRequest = (r: {
  method: string;
  url: string;
  headers: Record<string, string>;
}): CheckResult['request'] => ({
  method: r.method,
  url: r.url,
  headers: r.headers,
  body: null,
});

function plannedRequest(check: CheckConfig, location: LocationConfig): CheckResult['request'] {
  return { method: 'GET', url: check.target, headers: extraHeaders(check, location), body: null };
}

/** As the http runner does: the check's headers, and the location it ran from. */
const extraHeaders = (check: CheckConfig, location: LocationConfig) => ({
  ...check.headers,
  'x-checkwall-location': location.id,
});

const failed = (
  request: { method: string; url: string; headers: Record<string, string> },
  error: Error,
): Outcome => ({
  request: toRequest(request),
  response: null,
  timing: {},
  assertions: [],
  error,
});

function timedOut(progress: Progress, timeoutMs: number): Error {
  const where = stepLabel(progress);
  return namedError(
    'TimeoutError',
    `${where ? `${where}: ` : ''}${progress.waitingFor} within ${timeoutMs} ms`,
  );
}

/** Settles with `work`, or rejects as soon as `signal` aborts: a hung page cannot hold a run. */
function abortable<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  work.catch(() => undefined); // its rejection after an abort is expected and unwanted
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason as Error);
    if (signal.aborted) return abort();
    signal.addEventListener('abort', abort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

function capUtf8(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, 'utf8');
  return bytes.length <= maxBytes ? text : bytes.subarray(0, maxBytes).toString('utf8');
}
