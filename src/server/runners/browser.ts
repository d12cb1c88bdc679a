// The runner for `browser` and `multistep` checks: load the target in a fresh
// page of the service's Chromium, (multistep) walk the steps, then read what
// the page measured. Every failure, a timeout included, is a failed result,
// and a failed run keeps a picture of the page as it was.
import type { CheckResult } from '../../api/schemas/index.js';
import type { CheckConfig, RunLocation } from '../config/schema.js';
import type { RunCheck, RunContext, RunResult } from './types.js';
import { evaluateAssertions } from './assertions.js';
import {
  navigationPhases,
  sampleMetrics,
  NAVIGATION_SCRIPT,
  SAMPLE_SCRIPT,
  type NavigationEntry,
  type PageSample,
} from './browser-metrics.js';
import { watchPage, type DocumentRequest, type Navigation } from './browser-page.js';
import { within, type BrowserPool, type Page } from './browser-pool.js';
import { screenshot } from './browser-screenshot.js';
import { runSteps, stepLabel, type Progress } from './browser-steps.js';
import { certificateFromDetails } from './certificate.js';
import { finishResult, namedError, startFrame, type Outcome, type RunFrame } from './result.js';

/** After the load event (or the last step) the network may settle this long; it is not timed. */
const SETTLE_MS = 1_000;
/** A journey's first step waits this long at most for the page's first paint. */
const PAINT_WAIT_MS = 2_000;
/** Steps a visitor's first input is (discrete input: a click, a key, a choice), and how long its entry may take. */
const INPUTS = new Set(['click', 'type', 'press', 'select']);
const INPUT_WAIT_MS = 500;
/** Reading a page back is quick; this bounds a browser that stopped answering. */
const SETUP_MS = 10_000;

export function createBrowserRunner(pool: BrowserPool): RunCheck {
  return async (_account, check, location, ctx, triggeredBy) => {
    const frame = startFrame(check, location, triggeredBy);
    const setup = { headers: extraHeaders(check, location), insecureTls: check.insecureTls };
    let run: { result: CheckResult; screenshot?: Buffer | undefined };
    try {
      run = await pool.withPage(ctx.signal, setup, async (page) => {
        const result = finishResult(frame, await visit(page, frame, ctx));
        const keep = result.status === 'failed' || check.screenshot === 'always';
        return { result, screenshot: keep ? await screenshot(page) : undefined };
      });
    } catch (error) {
      // The browser could not give us a page (not started, crashed, stopping).
      const e = error instanceof Error ? error : new Error(String(error));
      run = {
        result: finishResult(
          frame,
          failed(plannedRequest(check, location), namedError('BrowserError', e.message)),
        ),
      };
    }
    const result: RunResult = { ...run.result, hasScreenshot: run.screenshot !== undefined };
    if (run.screenshot) result.screenshot = run.screenshot;
    return result;
  };
}

/** The target's document as it loaded, and its timing entry. */
interface Target {
  nav: Navigation;
  entry: NavigationEntry | null;
}

async function visit(page: Page, frame: RunFrame, ctx: RunContext): Promise<Outcome> {
  const { check, location } = frame;
  const watch = watchPage(page);
  try {
    // The clock starts now: launching the browser and opening the page are ours, not the target's.
    frame.startedAt = Date.now();
    frame.t0 = performance.now();
    const timeout = AbortSignal.timeout(check.timeoutMs);
    const signal = AbortSignal.any([ctx.signal, timeout]);
    const progress: Progress = { waitingFor: `${check.target} did not finish loading` };
    let target: Target | undefined;
    let stepError: Error | undefined;
    try {
      await abortable(
        (async () => {
          const nav = await watch.navigate(check.target);
          // Read at once: steps may leave this document.
          target = { nav, entry: await page.evaluate<NavigationEntry | null>(NAVIGATION_SCRIPT) };
          if (check.type !== 'multistep') return;
          // As a visitor would, see the page before touching it: input stops the paint metrics.
          await reported(page, 'largest-contentful-paint', PAINT_WAIT_MS);
          await runSteps(check.steps ?? [], { page, watch, signal, progress });
          // The first input's entry is reported after the next frame: read at once, it was missing
          // one run in three (Chromium 156).
          if (check.steps?.some((s) => INPUTS.has(s.action)))
            await reported(page, 'first-input', INPUT_WAIT_MS);
        })(),
        signal,
      );
    } catch (error) {
      stepError = timeout.aborted ? timedOut(progress, check.timeoutMs) : (error as Error);
    }
    const loaded = target as Target | undefined; // assigned in the closure above
    // A failed step left a page worth measuring; a timeout may have left a hung one.
    if (!loaded || (stepError && (stepError.name !== 'StepFailed' || signal.aborted))) {
      const e = stepError ?? namedError('NavigationError', 'the page could not be read');
      if (!loaded) return failed(watch.lastRequest() ?? plannedRequest(check, location), e);
      return { ...targetParts(loaded, frame, ctx), assertions: [], error: e, endedAt: performance.now() };
    }
    const endedAt = performance.now();
    await watch.settle(SETTLE_MS, signal);
    const outcome = await within(measure(page, loaded, frame, ctx, endedAt), SETUP_MS, 'reading the page');
    return stepError ? { ...outcome, error: stepError } : outcome;
  } finally {
    watch.dispose();
  }
}

/**
 * Waits until the current document has an entry of `type`, or `ms` passed: its first
 * LCP entry (it has painted its content: input before that entry is reported cancels
 * it, and the paint event comes too early), or its first input's.
 */
async function reported(page: Page, type: 'largest-contentful-paint' | 'first-input', ms: number) {
  const script = `new Promise((resolve) => {
    const o = new PerformanceObserver(() => (o.disconnect(), resolve(true)));
    o.observe({ type: '${type}', buffered: true });
    setTimeout(() => (o.disconnect(), resolve(false)), ${ms});
  })`;
  await page.evaluate(script).catch(() => undefined);
}

/** Request, response and phases: the target document's, whatever the steps did after it. */
function targetParts({ nav, entry }: Target, frame: RunFrame, ctx: RunContext) {
  const timing = entry ? navigationPhases(entry, frame.check.target.startsWith('https:')) : {};
  const r = nav.response;
  const response: CheckResult['response'] = r
    ? {
        statusCode: r.status,
        statusText: r.statusText,
        headers: r.headers,
        body: capUtf8(nav.body, ctx.maxStoredBodyBytes),
        responseTime: Math.round(entry?.responseEnd ?? 0),
        size: entry?.encodedBodySize ?? Buffer.byteLength(nav.body),
      }
    : null;
  const request = toRequest(nav.request ?? plannedRequest(frame.check, frame.location));
  const certificate = nav.security ? certificateFromDetails(nav.security, ctx.now()) : undefined;
  return { request, response, timing, certificate };
}

async function measure(
  page: Page,
  target: Target,
  frame: RunFrame,
  ctx: RunContext,
  endedAt: number,
): Promise<Outcome> {
  const { check } = frame;
  // Metrics and the rendered text are the page the run ended on.
  const sample = await page.evaluate<PageSample>(SAMPLE_SCRIPT);
  const { request, response, timing, certificate } = targetParts(target, frame, ctx);
  const status = response?.statusCode ?? 0;
  // TEXT_BODY and JSON_BODY look at the rendered page, what a visitor reads.
  const assertions = evaluateAssertions(check.assertions, {
    statusCode: status,
    headers: response?.headers ?? {},
    body: sample.text,
    responseTime: response?.responseTime ?? 0,
    certificate,
  });
  const error =
    check.assertions.length === 0 && status >= 400
      ? namedError('HttpStatusError', `the server answered ${status} ${response?.statusText ?? ''}`.trim())
      : undefined;
  const metrics = sampleMetrics(sample);
  return { request, response, timing, assertions, error, endedAt, metrics, certificate };
}

const toRequest = (r: DocumentRequest): CheckResult['request'] => ({
  method: r.method,
  url: r.url,
  headers: r.headers,
  body: null,
});

function plannedRequest(check: CheckConfig, location: RunLocation): DocumentRequest {
  return { method: 'GET', url: check.target, headers: extraHeaders(check, location) };
}

/** As the http runner does: the check's headers, and the location it ran from. */
const extraHeaders = (check: CheckConfig, location: RunLocation) => ({
  ...check.headers,
  'x-checkwall-location': location.id,
});

const failed = (request: DocumentRequest, error: Error): Outcome => ({
  request: toRequest(request),
  response: null,
  timing: {},
  assertions: [],
  error,
  endedAt: performance.now(),
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
