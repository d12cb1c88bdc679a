// What the page itself measured: the Navigation Timing entry of the main
// document, paint timing, and the Web Vitals entries, read in one evaluation
// and turned into the result's timing phases and metrics (catalogue units:
// FCP, LCP and TTI in seconds, CLS a score, FID in milliseconds).
import type { Outcome } from './result.js';
import { ms } from './result.js';

export interface NavigationEntry {
  domainLookupStart: number;
  domainLookupEnd: number;
  connectStart: number;
  secureConnectionStart: number;
  connectEnd: number;
  requestStart: number;
  responseStart: number;
  responseEnd: number;
  domContentLoadedEventEnd: number;
  encodedBodySize: number;
}

export interface PageSample {
  nav: NavigationEntry | null;
  fcp: number | null;
  lcp: number | null;
  /** [startTime, value, hadRecentInput] of each layout shift. */
  shifts: Array<[number, number, boolean]>;
  /** processingStart - startTime of the first input, null when nobody touched the page. */
  fid: number | null;
  text: string;
}

export const NAVIGATION_SCRIPT = `(() => {
  const nav = performance.getEntriesByType('navigation')[0];
  return nav ? nav.toJSON() : null;
})()`;

// Buffered observers hand over entries already recorded at once through
// takeRecords(), so one synchronous evaluation reads them all.
export const SAMPLE_SCRIPT = `(() => {
  const take = (type) => {
    try {
      const o = new PerformanceObserver(() => {});
      o.observe({ type, buffered: true });
      const r = o.takeRecords();
      o.disconnect();
      return r;
    } catch { return []; }
  };
  const nav = performance.getEntriesByType('navigation')[0];
  const fcp = performance.getEntriesByName('first-contentful-paint')[0];
  const lcp = take('largest-contentful-paint').at(-1);
  const input = take('first-input')[0];
  return {
    nav: nav ? nav.toJSON() : null,
    fcp: fcp ? fcp.startTime : null,
    lcp: lcp ? lcp.startTime : null,
    shifts: take('layout-shift').map((e) => [e.startTime, e.value, e.hadRecentInput]),
    fid: input ? input.processingStart - input.startTime : null,
    text: document.body ? document.body.innerText : '',
  };
})()`;

/** Timing phases of the main document from its Navigation Timing entry; tls only over https. */
export function navigationPhases(nav: NavigationEntry, https: boolean): Outcome['timing'] {
  const tlsStart = nav.secureConnectionStart > 0 ? nav.secureConnectionStart : nav.connectEnd;
  const timing: Outcome['timing'] = {
    dns: ms(nav.domainLookupStart, nav.domainLookupEnd),
    tcp: ms(nav.connectStart, tlsStart),
    firstByte: ms(nav.requestStart, nav.responseStart),
    download: ms(nav.responseStart, nav.responseEnd),
  };
  if (https) timing.tls = ms(tlsStart, nav.connectEnd);
  return timing;
}

/**
 * The metrics a run measured, in the catalogue's units and precision. A metric
 * the page never produced (no paint, no input) is absent, never zero.
 */
export function sampleMetrics(sample: PageSample): Record<string, number> {
  const metrics: Record<string, number> = {};
  const seconds = (v: number) => round(v / 1000, 3);
  if (sample.fcp !== null) metrics['firstContentfulPaint'] = seconds(sample.fcp);
  if (sample.lcp !== null) metrics['largestContentfulPaint'] = seconds(sample.lcp);
  if (sample.nav) metrics['cumulativeLayoutShift'] = round(cumulativeLayoutShift(sample.shifts), 4);
  if (sample.fid !== null) metrics['firstInputDelay'] = Math.round(sample.fid);
  // TTI approximated: the later of first paint with content and the end of
  // DOMContentLoaded (the DOM is built and deferred scripts have run).
  if (sample.nav && sample.nav.domContentLoadedEventEnd > 0)
    metrics['timeToInteractive'] = seconds(Math.max(sample.fcp ?? 0, sample.nav.domContentLoadedEventEnd));
  return metrics;
}

const SESSION_GAP_MS = 1000;
const SESSION_MAX_MS = 5000;

/**
 * CLS as Chrome defines it: shifts not caused by recent input are grouped in
 * session windows (under 1 s apart, at most 5 s long); the score is the
 * largest window's sum.
 */
export function cumulativeLayoutShift(shifts: ReadonlyArray<readonly [number, number, boolean]>): number {
  let best = 0;
  let sum = 0;
  let first = -Infinity;
  let last = -Infinity;
  for (const [at, value, byInput] of shifts) {
    if (byInput) continue;
    if (at - last >= SESSION_GAP_MS || at - first >= SESSION_MAX_MS) {
      sum = 0;
      first = at;
    }
    sum += value;
    last = at;
    best = Math.max(best, sum);
  }
  return best;
}

const round = (v: number, places: number) => Math.round(v * 10 ** places) / 10 ** places;
