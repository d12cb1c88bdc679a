// The entry of a run worker thread (worker-pool.ts): executes jobs of the run
// protocol (job-protocol.ts) on this thread's own event loop, so a busy API
// never delays a measurement and a burst of runs never delays the API.
import { parentPort } from 'node:worker_threads';
import { executeJob, type FromRunner, type ToRunner } from './job-protocol.js';

const port = parentPort;
if (!port) throw new Error('run-worker.js runs as a worker thread of the service');
const running = new Map<number, AbortController>();

port.on('message', (message: ToRunner) => {
  if (message.kind === 'abort') {
    running.get(message.id)?.abort(new Error('the service is stopping'));
    return;
  }
  const controller = new AbortController();
  running.set(message.id, controller);
  void executeJob(message.job, controller.signal).then((result) => {
    running.delete(message.id);
    const answer: FromRunner = { kind: 'result', id: message.id, result };
    port.postMessage(answer);
  });
});
