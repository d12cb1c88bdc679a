// One Chromium per service: started on the first browser run, started again
// if it dies, closed with the service. Each run gets a fresh browser context
// (its own cookies, cache and connections, the check's headers and TLS rule)
// and one page in it; at most `maxConcurrent` pages are open at once, and a
// context is always closed when its run ends.
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, type LaunchedBrowser } from './browser-launch.js';

export type { Page } from 'playwright-core';

export interface PageSetup {
  /** Sent with every request of the page: the check's headers and its location. */
  headers: Record<string, string>;
  /** Per context, not per browser: one check accepting a self-signed certificate makes no other accept it. */
  insecureTls: boolean;
}

export interface BrowserPool {
  /** Runs `visit` on a fresh page; waits for a free slot first (abandoned if `signal` aborts). */
  withPage<T>(signal: AbortSignal, setup: PageSetup, visit: (page: Page) => Promise<T>): Promise<T>;
  /** Closes the browser and waits for it to exit. */
  close(): Promise<void>;
  /** The running browser's process id and profile directory (for tests and diagnostics). */
  process(): { pid: number; profile: string } | null;
}

export interface BrowserPoolOptions {
  executable: string;
  maxConcurrent: number;
  launchTimeoutMs?: number;
}

const SETUP_TIMEOUT_MS = 10_000;
const CLOSE_GRACE_MS = 3_000;
const VIEWPORT = { width: 1280, height: 800 };

export function createBrowserPool(opts: BrowserPoolOptions): BrowserPool {
  const slots = createSlots(opts.maxConcurrent);
  let current: Promise<LaunchedBrowser> | null = null;
  let running: LaunchedBrowser | null = null;
  let closed = false;

  async function start(): Promise<LaunchedBrowser> {
    const launched = await launchBrowser(opts.executable, opts.launchTimeoutMs ?? 20_000);
    running = launched;
    // A crash or a kill: the next run starts another browser.
    launched.browser.once('disconnected', () => {
      if (running === launched) {
        running = null;
        current = null;
      }
      void launched.cleanUp();
    });
    return launched;
  }

  function browser(): Promise<LaunchedBrowser> {
    if (closed) return Promise.reject(new Error('the browser is closed: the service is stopping'));
    current ??= start().catch((error: unknown) => {
      current = null;
      throw error;
    });
    return current;
  }

  async function withPage<T>(signal: AbortSignal, setup: PageSetup, visit: (page: Page) => Promise<T>) {
    await slots.acquire(signal);
    try {
      const { browser: b } = await browser();
      const context = await within(newContext(b, setup), SETUP_TIMEOUT_MS, 'opening a page');
      try {
        return await visit(await within(context.newPage(), SETUP_TIMEOUT_MS, 'opening a page'));
      } finally {
        // A browser that cannot close a context is unwell: replace it rather than leak pages.
        await within(context.close(), SETUP_TIMEOUT_MS, 'closing the page').catch(() => b.close());
      }
    } finally {
      slots.release();
    }
  }

  async function close() {
    closed = true;
    slots.reject(new Error('the browser is closed: the service is stopping'));
    const launched = await current?.catch(() => null);
    if (!launched) return;
    await within(launched.browser.close(), CLOSE_GRACE_MS, 'closing the browser').catch(() => {
      // Closing over the pipe did not answer: the process goes the hard way.
      if (running) process.kill(running.pid, 'SIGKILL');
    });
    await launched.cleanUp();
  }

  return {
    withPage,
    close,
    process: () => (running ? { pid: running.pid, profile: running.profile } : null),
  };
}

function newContext(browser: Browser, setup: PageSetup) {
  return browser.newContext({
    viewport: VIEWPORT,
    ignoreHTTPSErrors: setup.insecureTls,
    extraHTTPHeaders: setup.headers,
  });
}

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
