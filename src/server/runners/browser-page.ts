// What a run needs from a page beyond Playwright's own: the main document's
// request and response as they went over the wire, a network-quiet wait, and
// navigation failures named the way every runner names them.
import type { Page, Request, Response } from 'playwright-core';

type SecurityDetails = NonNullable<Awaited<ReturnType<Response['securityDetails']>>>;
import { namedError } from './result.js';

export interface DocumentRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
}

export interface DocumentResponse {
  status: number;
  statusText: string;
  headers: Record<string, string>;
}

/** One main-frame navigation: what went over the wire for it, and the body received. */
export interface Navigation {
  request?: DocumentRequest;
  response?: DocumentResponse;
  body: string;
  /** The document's TLS certificate as the browser saw it (an HTTPS document only). */
  security?: SecurityDetails | null;
}

export interface PageWatch {
  /** Loads `url` and waits for its load event; no timeout of its own (the run's signal ends it). */
  navigate(url: string): Promise<Navigation>;
  /** The request of the latest main-document navigation, even one that failed. */
  lastRequest(): DocumentRequest | undefined;
  /** Waits until the page's network has been quiet a moment, or `ms` passed. */
  settle(ms: number, signal: AbortSignal): Promise<void>;
  dispose(): void;
}

const QUIET_MS = 300;

export function watchPage(page: Page): PageWatch {
  let latest: DocumentRequest | undefined;
  let pending = 0;
  let lastTraffic = performance.now();
  const onRequest = (request: Request) => {
    pending++;
    lastTraffic = performance.now();
    if (request.isNavigationRequest() && request.frame() === page.mainFrame())
      latest = { method: request.method(), url: request.url(), headers: lower(request.headers()) };
  };
  const onDone = () => {
    pending = Math.max(0, pending - 1);
    lastTraffic = performance.now();
  };
  page.on('request', onRequest);
  page.on('requestfinished', onDone);
  page.on('requestfailed', onDone);

  return {
    async navigate(url) {
      const response = await page.goto(url, { waitUntil: 'load', timeout: 0 }).catch((error: Error) => {
        throw navigationError(url, error.message);
      });
      // A same-document navigation (a #fragment) has no response.
      return response ? await document(response) : { body: '' };
    },
    lastRequest: () => latest,
    async settle(ms, signal) {
      // Playwright's networkidle waits 500 ms; a quieter, shorter rule serves:
      // nothing in flight for QUIET_MS (late paints and shifts land in that time).
      const end = performance.now() + ms;
      while (performance.now() < end && !signal.aborted) {
        if (pending === 0 && performance.now() - lastTraffic >= QUIET_MS) return;
        await new Promise((resolve) => setTimeout(resolve, QUIET_MS / 6));
      }
    },
    dispose() {
      page.off('request', onRequest);
      page.off('requestfinished', onDone);
      page.off('requestfailed', onDone);
    },
  };
}

/** The request and response of a document as they went over the wire (the check's extra headers included). */
async function document(response: Response): Promise<Navigation> {
  const request = response.request();
  const [requestHeaders, responseHeaders, body, security] = await Promise.all([
    request.allHeaders(),
    response.allHeaders(),
    response.body().then(
      (b) => b.toString('utf8'),
      () => '', // the browser no longer has it (a redirect's, or evicted)
    ),
    response.securityDetails().catch(() => null),
  ]);
  return {
    request: { method: request.method(), url: request.url(), headers: lower(requestHeaders) },
    response: {
      status: response.status(),
      statusText: response.statusText(),
      headers: lower(responseHeaders),
    },
    body,
    security,
  };
}

/** Header names in lower case (as assertions look them up); repeated headers joined like the http runner. */
function lower(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) out[k.toLowerCase()] = String(v).split('\n').join(', ');
  return out;
}

function navigationError(url: string, message: string): Error {
  const errorText = /net::ERR_[A-Z_]+/.exec(message)?.[0];
  if (!errorText) return namedError('NavigationError', `loading ${url} failed: ${firstLine(message)}`);
  const code = errorText.replace(/^net::/, '');
  const text = `loading ${url} failed: ${errorText}`;
  if (code === 'ERR_NAME_NOT_RESOLVED') return namedError('DNSError', text);
  if (code === 'ERR_CONNECTION_REFUSED') return namedError('ConnectionRefusedError', text);
  if (code.startsWith('ERR_CERT_') || code.startsWith('ERR_SSL_'))
    return namedError('TLSError', `${text} (a self-signed certificate needs insecureTls: true)`);
  if (code === 'ERR_TIMED_OUT' || code === 'ERR_CONNECTION_TIMED_OUT')
    return namedError('TimeoutError', text);
  return namedError('NavigationError', text);
}

const firstLine = (text: string) => (text.split('\n')[0] ?? text).replace(/^page\.goto: /, '');
