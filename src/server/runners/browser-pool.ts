// One Chromium per service: started on the first browser run, started again
// if it dies, closed with the service. Each run gets a fresh browser context
// (its own cookies, cache and connections) and one page in it; at most
// `maxConcurrent` pages are open at once, and a page's context is always
// disposed when its run ends.
import { connectCdp, type CdpConnection, type CdpEvent } from './browser-cdp.js';
import { launchChromium, type Chromium } from './browser-launch.js';

export interface Page {
  send<T = Record<string, unknown>>(method: string, params?: Record<string, unknown>): Promise<T>;
  on(listener: (event: CdpEvent) => void): () => void;
}

export interface BrowserPool {
  /** Runs `visit` on a fresh page; waits for a free slot first (abandoned if `signal` aborts). */
  withPage<T>(signal: AbortSignal, visit: (page: Page) => Promise<T>): Promise<T>;
  /** Closes the browser and waits for its process to exit. */
  close(): Promise<void>;
  /** The running browser's process id and profile directory (for tests and diagnostics). */
  process(): { pid: number; profile: string } | null;
}

export interface BrowserPoolOptions {
  executable: string;
  maxConcurrent: number;
  launchTimeoutMs?: number;
}

interface Browser {
  chromium: Chromium;
  cdp: CdpConnection;
}

const SETUP_TIMEOUT_MS = 10_000;
const CLOSE_GRACE_MS = 3_000;

export function createBrowserPool(opts: BrowserPoolOptions): BrowserPool {
  const slots = createSlots(opts.maxConcurrent);
  let current: Promise<Browser> | null = null;
  let running: Browser | null = null;
  let closed = false;

  async function start(): Promise<Browser> {
    const chromium = await launchChromium(opts.executable, opts.launchTimeoutMs ?? 20_000);
    const cdp = await connectCdp(chromium.wsUrl, SETUP_TIMEOUT_MS).catch((error: unknown) => {
      chromium.kill();
      throw error;
    });
    const browser = { chromium, cdp };
    running = browser;
    // Whichever goes first, the process or the connection, the browser is done:
    // the next run starts another, and no process is left behind.
    const retire = () => {
      if (running === browser) {
        running = null;
        current = null;
      }
      cdp.close();
      setTimeout(() => chromium.running && chromium.kill(), CLOSE_GRACE_MS).unref();
    };
    void cdp.closed.then(retire);
    void chromium.exited.then(retire).then(() => chromium.removeProfile());
    return browser;
  }

  async function browser(): Promise<Browser> {
    if (closed) throw new Error('the browser is closed: the service is stopping');
    current ??= start().catch((error: unknown) => {
      current = null;
      throw error;
    });
    return current;
  }

  async function withPage<T>(signal: AbortSignal, visit: (page: Page) => Promise<T>): Promise<T> {
    await slots.acquire(signal);
    try {
      const { cdp, chromium } = await browser();
      const setup = <R>(method: string, params: Record<string, unknown>) =>
        within(cdp.send<R>(method, params), SETUP_TIMEOUT_MS, method);
      const { browserContextId } = await setup<{ browserContextId: string }>('Target.createBrowserContext', {
        disposeOnDetach: true,
      });
      try {
        const { targetId } = await setup<{ targetId: string }>('Target.createTarget', {
          url: 'about:blank',
          browserContextId,
        });
        const { sessionId } = await setup<{ sessionId: string }>('Target.attachToTarget', {
          targetId,
          flatten: true,
        });
        return await visit({
          send: (method, params) => cdp.send(method, params, sessionId),
          on: (listener) => cdp.on(sessionId, listener),
        });
      } finally {
        // A browser that cannot close a context is unwell: replace it rather than leak pages.
        await within(
          cdp.send('Target.disposeBrowserContext', { browserContextId }),
          SETUP_TIMEOUT_MS,
          'dispose',
        ).catch(() => cdp.isOpen && chromium.kill());
      }
    } finally {
      slots.release();
    }
  }

  async function close() {
    closed = true;
    slots.reject(new Error('the browser is closed: the service is stopping'));
    const b = await current?.catch(() => null);
    if (!b) return;
    await within(b.cdp.send('Browser.close'), CLOSE_GRACE_MS, 'Browser.close').catch(() => undefined);
    if (!(await settles(b.chromium.exited, CLOSE_GRACE_MS))) {
      b.chromium.kill();
      await settles(b.chromium.exited, CLOSE_GRACE_MS);
    }
    await b.chromium.removeProfile();
  }

  return {
    withPage,
    close,
    process: () => (running ? { pid: running.chromium.pid, profile: running.chromium.profile } : null),
  };
}

const settles = (promise: Promise<unknown>, ms: number) =>
  within(promise, ms, 'wait').then(
    () => true,
    () => false,
  );

/** Rejects with a named error when `promise` takes longer than `ms`. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer from the browser within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

function createSlots(max: number) {
  let active = 0;
  const queue: Array<{ go(): void; stop(error: Error): void }> = [];
  return {
    acquire(signal: AbortSignal): Promise<void> {
      if (signal.aborted) return Promise.reject(signal.reason as Error);
      if (active < max) return (active++, Promise.resolve());
      return new Promise((resolve, reject) => {
        const entry = {
          go: () => (signal.removeEventListener('abort', onAbort), active++, resolve()),
          stop: (error: Error) => (signal.removeEventListener('abort', onAbort), reject(error)),
        };
        const onAbort = () => (queue.splice(queue.indexOf(entry), 1), reject(signal.reason as Error));
        signal.addEventListener('abort', onAbort, { once: true });
        queue.push(entry);
      });
    },
    release() {
      active--;
      queue.shift()?.go();
    },
    reject(error: Error) {
      for (const entry of queue.splice(0)) entry.stop(error);
    },
  };
}
