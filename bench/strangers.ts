// A flood of strangers for bench:service: 200 connections on loopback sending a
// wrong API key as fast as the service answers, from a worker thread (the flood's
// own client work is not on the service's thread), for a bounded time.
import { Worker } from 'node:worker_threads';

const FLOOD = `
const { parentPort, workerData } = require('node:worker_threads');
const { Pool } = require('undici');
const { url, connections, account } = workerData;
const pool = new Pool(url, { connections, pipelining: 1 });
let stop = false;
let sent = 0;
const codes = {};
parentPort.on('message', () => { stop = true; });
async function loop() {
  while (!stop) {
    try {
      const res = await pool.request({
        path: '/v1/check-statuses?limit=100',
        method: 'GET',
        headers: { authorization: 'Bearer cw_stranger_0123456789abcdef', 'x-service-account': account },
      });
      await res.body.dump();
      codes[res.statusCode] = (codes[res.statusCode] ?? 0) + 1;
    } catch {
      codes.error = (codes.error ?? 0) + 1;
    }
    sent++;
  }
}
Promise.all(Array.from({ length: connections }, loop)).then(async () => {
  await pool.close();
  parentPort.postMessage({ sent, codes });
});
`;

export interface Flood {
  /** Stops the flood and tells how many requests it sent and how they were answered. */
  stop(): Promise<{ sent: number; codes: Record<string, number> }>;
}

export function startStrangerFlood(url: string, account: string, connections = 200): Flood {
  const worker = new Worker(FLOOD, { eval: true, workerData: { url, connections, account } });
  return {
    stop: () =>
      new Promise((resolve, reject) => {
        worker.once('message', (summary: { sent: number; codes: Record<string, number> }) => {
          void worker.terminate().then(() => resolve(summary));
        });
        worker.once('error', reject);
        worker.postMessage('stop');
      }),
  };
}
