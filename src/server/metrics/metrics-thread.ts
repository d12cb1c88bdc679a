// The per-check text of /metrics is written on a thread of its own (metrics-worker.ts):
// for a large account the text and its gzip are long work and much garbage, which on
// the service's thread every request would wait behind (BENCHMARKS.md, bench:service metrics). The
// service's thread gathers the rows (check-rows.ts: strings and one typed array, quick to
// post) and gets back the text compressed, moved, not copied.
// Running from source (no built entry) or should the thread fail, the same renderer
// (check-families.ts) works in process.
import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { createChecksRenderer, type ChecksRenderer, type RenderedChecks } from './check-families.js';
import type { CheckRows } from './check-rows.js';

export type ToMetricsWorker = { id: number; scope: string; rows: CheckRows };
export type FromMetricsWorker =
  { id: number; deflate: Uint8Array; crc: number; size: number } | { id: number; error: string };

/** The thread's entry: metrics-worker.js beside this module, in dist/ and in the bundle. */
export const METRICS_WORKER_ENTRY = new URL('./metrics-worker.js', import.meta.url);

export interface MetricsThread {
  /** The scope's families of these rows (each scope keeps what its last rows made). */
  render(scope: string, rows: CheckRows): Promise<RenderedChecks>;
  close(): Promise<void>;
}

/** In process: one renderer per scope. */
export function renderersByScope(): (scope: string) => ChecksRenderer {
  const renderers = new Map<string, ChecksRenderer>();
  return (scope) => {
    let renderer = renderers.get(scope);
    if (!renderer) renderers.set(scope, (renderer = createChecksRenderer()));
    return renderer;
  };
}

interface Out {
  scope: string;
  rows: CheckRows;
  resolve(value: RenderedChecks): void;
  reject(error: Error): void;
}

/** Renders on a thread started at the first render, from `entry`; in process when there is none. */
export function createMetricsThread(
  entry: URL = METRICS_WORKER_ENTRY,
  log: (line: string) => void = (line) => console.error(`checkwall: ${line}`),
): MetricsThread {
  const here = renderersByScope();
  const inProcess = (scope: string, rows: CheckRows) => here(scope).render(rows);
  if (!existsSync(entry)) return { render: inProcess, close: () => Promise.resolve() };
  let worker: Worker | undefined;
  let failed = false;
  let closed = false;
  let nextId = 1;
  const out = new Map<number, Out>();
  const fail = (why: string) => {
    if (failed || closed) return;
    failed = true;
    log(`the metrics thread failed (${why}); /metrics is written on the main thread`);
    const calls = [...out.values()];
    out.clear();
    for (const call of calls) inProcess(call.scope, call.rows).then(call.resolve, call.reject);
  };
  const start = () => {
    const thread = new Worker(entry);
    // It keeps the process alive only while a render is out.
    thread.unref();
    thread.on('message', (answer: FromMetricsWorker) => {
      const call = out.get(answer.id);
      out.delete(answer.id);
      if (out.size === 0) thread.unref();
      if (!call) return;
      if ('error' in answer) return call.reject(new Error(answer.error));
      const { buffer, byteOffset, byteLength } = answer.deflate;
      call.resolve({
        deflate: Buffer.from(buffer, byteOffset, byteLength),
        crc: answer.crc,
        size: answer.size,
      });
    });
    thread.on('error', (error) => fail(error.message));
    thread.on('exit', (code) => fail(`it exited with code ${code}`));
    return thread;
  };
  return {
    render(scope, rows) {
      if (failed || closed) return inProcess(scope, rows);
      worker ??= start();
      return new Promise((resolve, reject) => {
        const id = nextId++;
        if (out.size === 0) worker!.ref();
        out.set(id, { scope, rows, resolve, reject });
        const message: ToMetricsWorker = { id, scope, rows };
        // Copied, not moved (the rows are small beside the text): should the thread fail,
        // the rows are rendered here.
        worker!.postMessage(message);
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const call of out.values()) call.reject(new Error('the service is closing'));
      out.clear();
      await worker?.terminate();
    },
  };
}
