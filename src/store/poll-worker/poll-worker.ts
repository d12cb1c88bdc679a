// The poll worker's entry (a worker_threads Worker): fetching, JSON decoding,
// zod validation and the comparison with the last poll happen here, so a poll of
// 10,000 checks never holds the UI thread; it posts back only what changed, a
// page at a time as it compares.
// scripts/bundle.js bundles this file as an entry of its own, beside cli.js.
import { parentPort, workerData } from 'node:worker_threads';
import { createClient } from '../../api/client.js';
import type { CheckStatus } from '../../api/schemas/index.js';
import { initialPollState, pollStatuses } from './poll-statuses.js';
import { errorToWire, type FromWorker, type ToWorker, type WorkerClientOptions } from './protocol.js';
import { createStatusTracker } from './status-tracker.js';

const port = parentPort;
if (!port) throw new Error('poll-worker.js runs as a worker thread (see spawn.ts)');

const client = createClient(workerData as WorkerClientOptions);
const state = initialPollState(createStatusTracker());
const post = (message: FromWorker) => port.postMessage(message);

// The UI thread stops the worker with terminate(): nothing here needs closing first.
port.on('message', (message: ToWorker) => {
  const { id } = message;
  const sink = (changed: CheckStatus[]) => {
    if (changed.length > 0) post({ type: 'part', id, changed });
  };
  pollStatuses(client, state, message.refreshMs, {}, sink).then(
    (changes) => post({ type: 'changes', id, changes }),
    (error: unknown) => post({ type: 'failed', id, error: errorToWire(error) }),
  );
});
