// The metrics thread's code (started by metrics-thread.ts): writes each scope's
// per-check families from the rows the service's thread posts, with the renderer the
// service runs in process when there is no such thread, and moves the compressed text back.
import { parentPort } from 'node:worker_threads';
import { renderersByScope, type FromMetricsWorker, type ToMetricsWorker } from './metrics-thread.js';

const port = parentPort;
if (!port) throw new Error('metrics-worker.js runs as a worker thread of the service');

const renderer = renderersByScope();
// One at a time, in order: a scope's renderer keeps what its last rows made.
let queue = Promise.resolve();

port.on('message', (message: ToMetricsWorker) => {
  queue = queue.then(async () => {
    let answer: FromMetricsWorker;
    const transfer: ArrayBuffer[] = [];
    try {
      const { deflate, crc, size } = await renderer(message.scope).render(message.rows);
      // Copied once into a buffer of its own, to be moved: a Buffer may sit in Node's shared pool.
      const bytes = new Uint8Array(deflate.byteLength);
      bytes.set(deflate);
      transfer.push(bytes.buffer);
      answer = { id: message.id, deflate: bytes, crc, size };
    } catch (error) {
      answer = { id: message.id, error: (error as Error).message };
    }
    port.postMessage(answer, transfer);
  });
});
