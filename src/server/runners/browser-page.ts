// What a run needs from a page: navigate and wait for the load event, know the
// main document's request and response, let the network settle, evaluate.
import type { CdpEvent } from './browser-cdp.js';
import type { Page } from './browser-pool.js';
import { namedError } from './result.js';

export interface DocumentRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
}

export interface DocumentResponse {
  url: string;
  status: number;
  statusText: string;
  headers: Record<string, string>;
}

/** One main-frame navigation: its loader, and what went over the wire for it. */
export interface Navigation {
  loaderId: string;
  request?: DocumentRequest;
  response?: DocumentResponse;
}

export interface PageWatch {
  navigate(url: string, signal: AbortSignal): Promise<Navigation>;
  /** The request of the latest main-document navigation, even one that failed. */
  lastRequest(): DocumentRequest | undefined;
  /** Waits until the current document has painted its content, or `ms` passed. */
  painted(ms: number): Promise<void>;
  /** Waits until the page's network has been quiet a moment, or `ms` passed. */
  settle(ms: number, signal: AbortSignal): Promise<void>;
  evaluate<T>(expression: string): Promise<T>;
  /** The main document's body as received, or '' if the browser no longer has it. */
  body(loaderId: string): Promise<string>;
  dispose(): void;
}

interface RequestEvent {
  type?: string;
  requestId: string;
  loaderId: string;
  request: DocumentRequest;
}
interface ResponseEvent {
  type?: string;
  requestId: string;
  response: DocumentResponse;
}
interface LifecycleEvent {
  frameId: string;
  loaderId: string;
  name: string;
}

const QUIET_MS = 300;

export interface PageSetup {
  headers: Record<string, string>;
  insecureTls: boolean;
}

export async function watchPage(page: Page, setup: PageSetup): Promise<PageWatch> {
  const requests = new Map<string, DocumentRequest>();
  const responses = new Map<string, DocumentResponse>();
  const lifecycle = new Map<string, Set<string>>();
  const waiters = new Set<() => void>();
  let frameId = '';
  let loaderId = '';
  let latest: string | undefined;
  const pending = new Set<string>();
  let lastTraffic = performance.now();
  function noteTraffic(method: string, requestId: string) {
    if (method === 'Network.requestWillBeSent') pending.add(requestId);
    else if (method === 'Network.loadingFinished' || method === 'Network.loadingFailed')
      pending.delete(requestId);
    else return;
    lastTraffic = performance.now();
  }
  const off = page.on((e) => {
    record(e);
    for (const w of waiters) w();
  });
  function record({ method, params }: CdpEvent) {
    if (method.startsWith('Network.')) noteTraffic(method, String(params['requestId']));
    if (method === 'Network.requestWillBeSent') {
      const p = params as unknown as RequestEvent;
      if (p.type !== 'Document' || p.requestId !== p.loaderId) return;
      const { method: verb, url, headers } = p.request;
      requests.set(p.loaderId, { method: verb, url, headers: lower(headers) });
      latest = p.loaderId;
    } else if (method === 'Network.responseReceived') {
      const p = params as unknown as ResponseEvent;
      if (p.type !== 'Document') return;
      const { url, status, statusText, headers } = p.response;
      responses.set(p.requestId, { url, status, statusText, headers: lower(headers) });
    } else if (method === 'Page.lifecycleEvent') {
      const p = params as unknown as LifecycleEvent;
      if (p.frameId !== frameId) return;
      if (p.name === 'init') loaderId = p.loaderId;
      lifecycle.set(p.loaderId, (lifecycle.get(p.loaderId) ?? new Set<string>()).add(p.name));
    }
  }
  // Resolves when `ready()` holds after some event; rejects when the signal aborts.
  const until = (ready: () => boolean, signal: AbortSignal) =>
    new Promise<void>((resolve, reject) => {
      const check = () => ready() && (done(), resolve());
      const abort = () => (done(), reject(signal.reason as Error));
      const done = () => (waiters.delete(check), signal.removeEventListener('abort', abort));
      if (signal.aborted) return abort();
      waiters.add(check);
      signal.addEventListener('abort', abort, { once: true });
      check();
    });

  // Sent together: a page answers them in order, and one round trip is cheaper than five.
  const [tree] = await Promise.all([
    page.send<{ frameTree: { frame: { id: string } } }>('Page.getFrameTree'),
    page.send('Page.enable'),
    page.send('Network.enable'),
    page.send('Page.setLifecycleEventsEnabled', { enabled: true }),
    page.send('Network.setExtraHTTPHeaders', { headers: setup.headers }),
    // Per page, not per browser: a check that accepts a self-signed certificate
    // does not make any other check accept one.
    setup.insecureTls ? page.send('Security.setIgnoreCertificateErrors', { ignore: true }) : undefined,
  ]);
  frameId = tree.frameTree.frame.id;

  async function evaluate<T>(expression: string): Promise<T> {
    const r = await page.send<{
      result: { value?: unknown };
      exceptionDetails?: { text: string; exception?: { description?: string } };
    }>('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true });
    if (r.exceptionDetails)
      throw new Error(r.exceptionDetails.exception?.description ?? r.exceptionDetails.text);
    return r.result.value as T;
  }

  return {
    async navigate(url, signal) {
      const nav = await page.send<{ loaderId?: string; errorText?: string }>('Page.navigate', { url });
      if (nav.errorText) throw navigationError(url, nav.errorText);
      // A same-document navigation (a #fragment) has no loader and no load event.
      if (!nav.loaderId) return { loaderId };
      const id = nav.loaderId;
      await until(() => lifecycle.get(id)?.has('load') === true, signal);
      return { loaderId: id, request: requests.get(id), response: responses.get(id) };
    },
    lastRequest: () => (latest === undefined ? undefined : requests.get(latest)),
    async painted(ms) {
      // The page's own word: its first largest-contentful-paint entry. Input
      // before that entry is reported cancels it, and the paint event comes too early.
      const script = `new Promise((resolve) => {
        const o = new PerformanceObserver(() => (o.disconnect(), resolve(true)));
        o.observe({ type: 'largest-contentful-paint', buffered: true });
        setTimeout(() => (o.disconnect(), resolve(false)), ${ms});
      })`;
      await evaluate(script).catch(() => undefined);
    },
    async settle(ms, signal) {
      // Chrome's own networkIdle waits a full second; a quieter, shorter rule serves:
      // nothing in flight for QUIET_MS (late paints and shifts land in that time).
      const end = performance.now() + ms;
      while (performance.now() < end && !signal.aborted) {
        if (pending.size === 0 && performance.now() - lastTraffic >= QUIET_MS) return;
        await new Promise((resolve) => setTimeout(resolve, QUIET_MS / 6));
      }
    },
    evaluate,
    async body(id) {
      const r = await page
        .send<{ body: string; base64Encoded: boolean }>('Network.getResponseBody', { requestId: id })
        .catch(() => ({ body: '', base64Encoded: false }));
      return r.base64Encoded ? Buffer.from(r.body, 'base64').toString('utf8') : r.body;
    },
    dispose: () => (off(), waiters.clear()),
  };
}

/** Header names in lower case (as assertions look them up); repeated headers joined like the http runner. */
function lower(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) out[k.toLowerCase()] = String(v).split('\n').join(', ');
  return out;
}

function navigationError(url: string, errorText: string): Error {
  const code = errorText.replace(/^net::/, '');
  const message = `loading ${url} failed: ${errorText}`;
  if (code === 'ERR_NAME_NOT_RESOLVED') return namedError('DNSError', message);
  if (code === 'ERR_CONNECTION_REFUSED') return namedError('ConnectionRefusedError', message);
  if (code.startsWith('ERR_CERT_') || code.startsWith('ERR_SSL_'))
    return namedError('TLSError', `${message} (a self-signed certificate needs insecureTls: true)`);
  if (code === 'ERR_TIMED_OUT' || code === 'ERR_CONNECTION_TIMED_OUT')
    return namedError('TimeoutError', message);
  return namedError('NavigationError', message);
}
