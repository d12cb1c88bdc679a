// A pool of run worker threads, sized to the machine's cores, started on the
// first run. A run goes to the first worker with room (FILL); its result comes
// back in a message, with others finished close by (run-worker.ts), and is
// stored by the caller on the main thread. A worker that dies answers its runs
// with failed results and is replaced on the next run.
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { CheckResult } from '../../api/schemas/index.js';
import { runnerError, type FromRunner, type RunJob, type ToRunner } from './job-protocol.js';

/** Runs in flight on a thread before the next thread takes the next run. */
const FILL = 8;

export interface WorkerPoolOptions {
  /** Threads; default: the machine's cores. */
  size?: number;
  /**
   * The worker's entry. Default: run-worker.js beside this module, which is
   * where both the compiled dist/ and the bundle (scripts/bundle.js) put it.
   */
  entry?: URL;
}

export interface WorkerPool {
  run(job: RunJob, signal: AbortSignal): Promise<CheckResult>;
  /**
   * Starts the threads now rather than on the first run, and resolves once each has
   * loaded and warmed its HTTP client (a request to itself), or after `withinMs`: the
   * first runs after a start measure the target, not our start-up.
   */
  warm(withinMs?: number): Promise<void>;
  /** Runs executed per worker thread id since start (for tests and the bench). */
  runsByThread(): Map<number, number>;
  close(): Promise<void>;
}

interface Pending {
  job: RunJob;
  resolve: (result: CheckResult) => void;
}

interface Member {
  worker: Worker;
  pending: Map<number, Pending>;
  /** Runs given this turn, posted in one message at its end (flush). */
  unsent: Array<{ id: number; job: RunJob }>;
  /** Resolves when the thread says it is ready, or when it fails. */
  ready: Promise<void>;
}

export function createWorkerPool(opts: WorkerPoolOptions = {}): WorkerPool {
  const size = Math.max(1, opts.size ?? availableParallelism());
  const entry = opts.entry ?? new URL('./run-worker.js', import.meta.url);
  const members: Member[] = [];
  const byThread = new Map<number, number>();
  let nextId = 1;
  let closed = false;

  function spawn(): Member {
    if (!existsSync(entry))
      // Running from source (TypeScript under vitest): a worker cannot load it. Tests pass
      // workers.entry from test/helpers/run-worker.ts, which bundles it.
      throw new Error(`the run worker's entry ${fileURLToPath(entry)} does not exist`);
    const worker = new Worker(entry);
    let isReady: () => void = () => undefined;
    const ready = new Promise<void>((resolve) => (isReady = resolve));
    const member: Member = { worker, pending: new Map(), unsent: [], ready };
    worker.on('message', (message: FromRunner) => {
      if (message.kind === 'ready') return isReady();
      byThread.set(worker.threadId, (byThread.get(worker.threadId) ?? 0) + message.results.length);
      for (const { id, result } of message.results) {
        const pending = member.pending.get(id);
        member.pending.delete(id);
        pending?.resolve(result);
      }
    });
    const fail = (why: string) => {
      isReady();
      const at = members.indexOf(member);
      if (at >= 0) members.splice(at, 1);
      answerAll(member, why);
    };
    worker.once('error', (error) => fail(`the run's worker failed: ${error.message}`));
    worker.once('exit', (code) => members.includes(member) && fail(`the run's worker exited (${code})`));
    return member;
  }

  /** Answers every run the thread holds, or was yet to be posted, with `why` as its error. */
  function answerAll(member: Member, why: string) {
    member.unsent.length = 0;
    for (const p of member.pending.values()) p.resolve(runnerError(p.job, why));
    member.pending.clear();
  }

  function fill() {
    while (!closed && members.length < size) members.push(spawn());
  }

  async function warm(withinMs = 10_000) {
    try {
      fill();
    } catch {
      return; // no worker can start: each run says why (run() below)
    }
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, withinMs).unref()));
    await Promise.race([Promise.all(members.map((m) => m.ready)), late]);
    clearTimeout(timer);
  }

  // A tick's runs are given one by one as their offers come back, within one turn of
  // the loop: one message for them all, not one each (a message costs the sender and
  // the thread it wakes, per message; BENCHMARKS.md, "bench:threads, fewer wake-ups at
  // a few runs a second").
  function post(member: Member, id: number, job: RunJob) {
    if (member.unsent.push({ id, job }) === 1) setImmediate(flush, member);
  }

  function flush(member: Member) {
    if (member.unsent.length === 0) return;
    member.worker.postMessage({ kind: 'runs', runs: member.unsent.splice(0) } satisfies ToRunner);
  }

  function pick(): Member {
    fill();
    // The first thread with room, not the least busy: runs of one tick then wake one
    // thread, not each in turn (at 20 runs a second, two threads sharing every tick cost
    // more CPU than one taking it; BENCHMARKS.md, "bench:threads, offsets on a
    // quarter-second grid"). A run mostly waits on the network; past FILL in flight on
    // every thread, the least busy takes it.
    return (
      members.find((m) => m.pending.size < FILL) ??
      members.reduce((a, b) => (b.pending.size < a.pending.size ? b : a))
    );
  }

  return {
    run(job, signal) {
      if (closed) return Promise.resolve(runnerError(job, 'the service is stopping'));
      let member: Member;
      try {
        member = pick();
      } catch (error) {
        return Promise.resolve(runnerError(job, (error as Error).message));
      }
      const id = nextId++;
      const abort = () => {
        if (!member.pending.has(id)) return;
        flush(member); // the run before its abort
        member.worker.postMessage({ kind: 'abort', id } satisfies ToRunner);
      };
      return new Promise<CheckResult>((resolve) => {
        const done = (result: CheckResult) => {
          signal.removeEventListener('abort', abort); // one signal serves every run
          resolve(result);
        };
        member.pending.set(id, { job, resolve: done });
        post(member, id, job);
        if (signal.aborted) abort();
        else signal.addEventListener('abort', abort, { once: true });
      });
    },
    warm,
    runsByThread: () => new Map(byThread),
    async close() {
      closed = true;
      const all = members.splice(0);
      for (const m of all) answerAll(m, 'the service is stopping');
      await Promise.all(all.map((m) => m.worker.terminate()));
    },
  };
}
