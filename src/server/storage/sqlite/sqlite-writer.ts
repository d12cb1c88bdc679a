// The writer thread's code (started by sqlite/write-thread.ts): the run queue's
// writes (offers, claims, reports with their results, runners seen) and
// retention's chunks, made over a connection of its own to the service's file,
// with the very code the service's thread runs when there is no such thread
// (createWrites). One message, one transaction, answered in order.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { configureConnection } from './connection.js';
import { createWrites, type FromWriter, type ToWriter } from './write-thread.js';

const port = parentPort;
if (!port) throw new Error('sqlite-writer.js runs as a worker thread of the service');

const db = new Database((workerData as { path: string }).path, { fileMustExist: true });
configureConnection(db);
const writes = createWrites(db);

port.on('message', (message: ToWriter) => {
  if (message.op === 'stop') {
    db.close();
    port.close();
    return;
  }
  let answer: FromWriter;
  try {
    const write = writes[message.op] as (...args: unknown[]) => unknown;
    answer = { id: message.id, value: write(...message.args) };
  } catch (error) {
    const { message: why, code } = error as Error & { code?: unknown };
    answer = { id: message.id, error: { message: why, ...(typeof code === 'string' ? { code } : {}) } };
  }
  port.postMessage(answer);
});
