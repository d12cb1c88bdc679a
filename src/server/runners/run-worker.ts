// The entry of a run worker thread (worker-pool.ts): executes jobs of the run
// protocol (job-protocol.ts) on this thread's own event loop, so a busy API
// never delays a measurement and a burst of runs never delays the API.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parentPort } from 'node:worker_threads';
import type { CheckResult } from '../../api/schemas/index.js';
import { CheckConfigSchema } from '../config/schema.js';
import { executeJob, type FromRunner, type RunJob, type ToRunner } from './job-protocol.js';

const port = (() => {
  if (!parentPort) throw new Error('run-worker.js runs as a worker thread of the service');
  return parentPort;
})();
const running = new Map<number, AbortController>();

// Results wait here while other runs are in flight, at most HOLD_MS, and go in one
// message: a tick's runs finish within milliseconds of each other, and a message
// each woke the main thread for each (BENCHMARKS.md, "bench:threads, one wake-up a
// tick"). What a run measured is not moved; its result is stored that much later.
// The timer is set only if runs are still in flight once the loop's turn is over:
// a tick's runs mostly finish in one turn, and a timer set and cleared still woke
// the thread when it would have fired (Node leaves its libuv timer armed).
const HOLD_MS = 20;
let held: Array<{ id: number; result: CheckResult }> = [];
let holding: NodeJS.Timeout | undefined;
let turnEnd: NodeJS.Immediate | undefined;

function holdPastTurn() {
  turnEnd = undefined;
  if (held.length === 0) return;
  if (running.size === 0) send();
  else holding ??= setTimeout(send, HOLD_MS);
}

function send() {
  clearTimeout(holding);
  holding = undefined;
  const results = held;
  held = [];
  if (results.length > 0) port.postMessage({ kind: 'results', results } satisfies FromRunner);
}

// A thread's first request loads and compiles the HTTP client (undici's parser is
// WebAssembly): measured inside a real run, that cost read as the target's slowness
// in every check's first run after a start (BENCHMARKS.md, "Storage, runners, HTTP").
// One request to ourselves first.
// The pool waits for this before the scheduler's first offer (worker-pool.ts warm()).
const ready = warmUp()
  .catch(() => undefined)
  .then(() => port.postMessage({ kind: 'ready' } satisfies FromRunner));

port.on('message', (message: ToRunner) => void ready.then(() => handle(message)));

function handle(message: ToRunner) {
  if (message.kind === 'abort') running.get(message.id)?.abort(new Error('the service is stopping'));
  else for (const { id, job } of message.runs) start(id, job);
}

function start(id: number, job: RunJob) {
  const controller = new AbortController();
  running.set(id, controller);
  void executeJob(job, controller.signal).then((result) => {
    running.delete(id);
    held.push({ id, result });
    if (running.size === 0) send();
    else turnEnd ??= setImmediate(holdPastTurn);
  });
}

async function warmUp(): Promise<void> {
  const server = createServer((_req, res) => res.end('ok'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: at } = server.address() as AddressInfo;
  const check = CheckConfigSchema.parse({
    id: 'warm-up',
    name: 'warm-up',
    type: 'api',
    target: `http://127.0.0.1:${at}/`,
    locations: ['here'],
  });
  const location = { id: 'here', name: 'here', region: 'here' };
  const job = { accountId: 'warm-up', check, location, triggeredBy: 'api' as const, maxStoredBodyBytes: 0 };
  await executeJob(job, AbortSignal.timeout(10_000)).finally(() => server.close());
}
