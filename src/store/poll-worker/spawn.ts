// The UI thread's side of the poll worker: one poll at a time, answered with
// what changed. A worker that dies (it should not) fails the poll in flight and
// is started again by the next one, so the poller's backoff handles it like any
// failed poll.
import { Worker } from 'node:worker_threads';
import type { CheckStatus } from '../../api/schemas/index.js';
import { letYoungGenerationGrow, setConsoleV8Flags } from '../v8-flags.js';
import { createInterner } from './intern.js';
import type { StatusChanges } from './poll-statuses.js';
import { errorFromWire, type FromWorker, type ToWorker, type WorkerClientOptions } from './protocol.js';

export interface StatusesWorker {
  poll(refreshMs: number): Promise<StatusChanges>;
  stop(): Promise<void>;
}

/**
 * Beside this module in dist/ (dist/store/poll-worker/), and beside the chunk
 * holding it in the bundle (dist/bundle/, where scripts/bundle.js writes the
 * worker's own entry as poll-worker.js).
 */
export const DEFAULT_WORKER_URL = new URL('./poll-worker.js', import.meta.url);

/**
 * The worker keeps fingerprints, not statuses, and parses a page at a time: a
 * small young generation is plenty, and V8's default (16 MB semi-spaces per
 * isolate) cost the console tens of megabytes of RSS for nothing.
 */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 4 };

interface Waiting {
  /** The poll's changed checks so far, a page's worth a message. */
  parts: CheckStatus[][];
  resolve(c: StatusChanges): void;
  reject(e: Error): void;
}

export function spawnStatusesWorker(
  clientOptions: WorkerClientOptions,
  workerUrl: URL = DEFAULT_WORKER_URL,
): StatusesWorker {
  let worker: Worker | undefined;
  let nextId = 1;
  const pending = new Map<number, Waiting>();
  const intern = createInterner();
  const interned = (checks: CheckStatus[]) => {
    for (const c of checks) intern.status(c);
    return checks;
  };

  function start(): Worker {
    const w = new Worker(workerUrl, { workerData: clientOptions, resourceLimits: WORKER_LIMITS });
    // The console exits when its UI does: a worker between polls must not hold the process.
    w.unref();
    // Creating the worker's isolate put V8's flags back for the whole process (see ../v8-flags.ts).
    w.once('online', () => setConsoleV8Flags());
    w.on('message', (message: FromWorker) => {
      const waiting = pending.get(message.id);
      if (message.type === 'part') return void waiting?.parts.push(interned(message.changed));
      pending.delete(message.id);
      if (message.type === 'failed') return waiting?.reject(errorFromWire(message.error));
      const { changes } = message;
      waiting?.resolve({ ...changes, changed: waiting.parts.flat().concat(interned(changes.changed)) });
      letYoungGenerationGrow();
    });
    const fail = (error: Error) => {
      if (worker === w) worker = undefined;
      for (const p of pending.values()) p.reject(error);
      pending.clear();
    };
    w.on('error', (error) => fail(new Error(`the poll worker failed: ${error.message}`)));
    w.on('exit', (code) => fail(new Error(`the poll worker exited (code ${code})`)));
    return w;
  }

  return {
    poll(refreshMs) {
      worker ??= start();
      const id = nextId++;
      const w = worker;
      return new Promise<StatusChanges>((resolve, reject) => {
        pending.set(id, { parts: [], resolve, reject });
        w.postMessage({ type: 'poll', id, refreshMs } satisfies ToWorker);
      });
    },
    async stop() {
      const w = worker;
      worker = undefined;
      // A poll in flight is dropped with its sockets: the console is going away.
      await w?.terminate();
    },
  };
}
