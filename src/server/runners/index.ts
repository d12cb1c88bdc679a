// Dispatches a check to its runner. api, url and tcp checks run in worker
// threads (worker-pool.ts), off the API's event loop, from a serialisable job
// (job-protocol.ts); heartbeats are judged here, where pings are stored.
// Browser and multistep checks run in the
// service's one Chromium (createRunner owns it); where Chromium is not
// installed they do not run at all, and the status engine reports them
// unknown with the reason, so no data is ever invented.
import type { CheckConfig } from '../config/schema.js';
import type { RunCheck } from './types.js';
import { createBrowserRunner } from './browser.js';
import { browserMissing, chromiumPath } from './browser-launch.js';
import { createBrowserPool } from './browser-pool.js';
import { runHttpCheck } from './http.js';
import { JOB_CHECK_TYPES, toJob } from './job-protocol.js';
import { finishResult, namedError, startFrame } from './result.js';
import { runTcpCheck } from './tcp.js';
import { createWorkerPool, type WorkerPool, type WorkerPoolOptions } from './worker-pool.js';

const needsBrowser = (check: Pick<CheckConfig, 'type'>) =>
  check.type === 'browser' || check.type === 'multistep';

/** Why this check cannot run in this service, or undefined when it can. */
export function notRunnableReason(check: Pick<CheckConfig, 'type'>): string | undefined {
  return needsBrowser(check) ? (browserMissing() ?? undefined) : undefined;
}

export function isRunnable(check: Pick<CheckConfig, 'type'>): boolean {
  return notRunnableReason(check) === undefined;
}

export interface Runner {
  run: RunCheck;
  workers: Pick<WorkerPool, 'runsByThread' | 'warm'>;
  /** Closes the browser and the workers, if started; call after the last run has ended. */
  close(): Promise<void>;
}

/** The runners of one service: run workers and one browser, each started on its first run. */
export function createRunner(opts: {
  maxConcurrentBrowserRuns: number;
  workers?: WorkerPoolOptions;
}): Runner {
  const pool = createBrowserPool({
    executable: chromiumPath(),
    maxConcurrent: opts.maxConcurrentBrowserRuns,
  });
  const workers = createWorkerPool(opts.workers);
  const runBrowser = createBrowserRunner(pool);
  return {
    run: (account, check, location, ctx, triggeredBy) => {
      if (needsBrowser(check)) return runBrowser(account, check, location, ctx, triggeredBy);
      if (!JOB_CHECK_TYPES.includes(check.type)) return runCheck(account, check, location, ctx, triggeredBy);
      const job = toJob(account.id, check, location, triggeredBy, ctx.maxStoredBodyBytes);
      return workers.run(job, ctx.signal);
    },
    workers,
    close: async () => {
      await Promise.all([pool.close(), workers.close()]);
    },
  };
}

/** The runners that need no browser; a browser or heartbeat check here is a failed result saying so. */
export const runCheck: RunCheck = (account, check, location, ctx, triggeredBy) => {
  switch (check.type) {
    case 'api':
    case 'url':
      return runHttpCheck(account, check, location, ctx, triggeredBy);
    case 'tcp':
      return runTcpCheck(account, check, location, ctx, triggeredBy);
    // A heartbeat is never offered (schedule/plan.ts) nor asked for (http/action-routes.ts):
    // its job's signals and heartbeats/watch.ts judge it.
    case 'heartbeat':
    case 'browser':
    case 'multistep': {
      const request = { method: 'GET', url: check.target, headers: {}, body: null };
      const error =
        check.type === 'heartbeat'
          ? namedError('HeartbeatError', 'heartbeat checks are judged by their pings, never run')
          : namedError('BrowserError', `${check.type} checks run through createRunner, which owns a browser`);
      const frame = startFrame(check, location, triggeredBy);
      return Promise.resolve(
        finishResult(frame, { request, response: null, timing: {}, assertions: [], error }),
      );
    }
  }
};
