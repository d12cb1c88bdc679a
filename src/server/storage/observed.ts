// The storage as the service's health sees it (docs/health.md): every call passes
// through, and a failure the database itself causes (a full disk, an I/O error, a
// server gone) is told to a listener, as is the first success after it. The listener
// is the service's health (status/health.ts), given by service.ts: storage knows
// nothing of it. A bug (a constraint, a bad query) is no fault of the database's.
import { sanitize } from '../../domain/sanitize.js';
import type { Storage } from './types.js';

/** `write`: the database refuses to store (disk full, I/O error); `unreachable`: no connection. */
export type StorageFaultKind = 'write' | 'unreachable';

export interface StorageFault {
  kind: StorageFaultKind;
  /** The cause in a few words: the driver's message and code, no stack. */
  cause: string;
}

export interface StorageListener {
  failed(fault: StorageFault): void;
  /** A call that could have failed so succeeded: a write (`write`), or any call (`unreachable`). */
  succeeded(kind: StorageFaultKind): void;
  /** How long a call took to answer (or fail), in seconds, by its method's name (/metrics). */
  timed?(operation: string, seconds: number): void;
}

// SQLite's result codes (extended ones carry the primary's name as their prefix).
const SQLITE_WRITE = /^SQLITE_(FULL|IOERR|READONLY|CANTOPEN|CORRUPT|NOTADB|PROTOCOL)/;
const SYSTEM_WRITE = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'EIO']);
// PostgreSQL: insufficient resources (53: disk full, out of memory) and system errors (58).
const PG_WRITE = /^(53|58)[0-9A-Z]{3}$/;
// PostgreSQL: connection exceptions (08), the server shutting down or refusing (57P0x).
const PG_UNREACHABLE = /^(08[0-9A-Z]{3}|57P0[1-4])$/;
const SOCKET_UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);
// pg's own words when a connection ends or never comes, with no code to tell it by.
const PG_GONE =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection closed)/;

/** Which fault of the database an error is, or null when it is none (a bug, a constraint). */
export function storageFault(error: unknown): StorageFault | null {
  if (!(error instanceof Error)) return null;
  const raw = (error as { code?: unknown }).code;
  const code = typeof raw === 'string' ? raw : '';
  const kind = faultKind(code, error.message);
  if (!kind) return null;
  // The driver's words may quote what a query carried: made safe for a terminal or a log.
  const message = sanitize(error.message.split('\n')[0]!).slice(0, 200);
  return { kind, cause: code && !message.includes(code) ? `${message} (${code})` : message };
}

function faultKind(code: string, message: string): StorageFaultKind | null {
  if (SQLITE_WRITE.test(code) || SYSTEM_WRITE.has(code) || PG_WRITE.test(code)) return 'write';
  if (PG_UNREACHABLE.test(code) || SOCKET_UNREACHABLE.has(code) || PG_GONE.test(message))
    return 'unreachable';
  return null;
}

/** Calls that store: their success ends a `write` fault; any success ends an `unreachable` one. */
const WRITES = new Set<string>([
  'insertResult',
  'insertResults',
  'insertScreenshot',
  'recordPing',
  'saveHeartbeatRuns',
  'createChannel',
  'setSubscriptions',
  'setGroupWindow',
  'openIncident',
  'closeIncident',
  'applyAlertChange',
  'acknowledgeAlert',
  'enqueueNotification',
  'finishAttempt',
  'offerRun',
  'claimRuns',
  'completeRun',
  'withdrawRuns',
  'releaseRuns',
  'recordRunnerSeen',
  'saveMaintenanceWindow',
  'deleteMaintenanceWindow',
  'markHoldEndsProcessed',
  'releaseOrphanedLeases',
]);

/**
 * The storage with every asynchronous call observed. Other members (a PostgreSQL
 * storage's `kind`, `changes`) pass through untouched, so what opened it can still tell it.
 */
export function observeStorage<S extends Storage>(storage: S, listener: StorageListener): S {
  // By the method itself, not its name: a method replaced on the storage is observed as it is now.
  const wrapped = new WeakMap<object, unknown>();
  return new Proxy(storage, {
    get(target, name, receiver) {
      const value: unknown = Reflect.get(target, name, receiver);
      if (typeof value !== 'function' || name === 'close') return value;
      let fn = wrapped.get(value);
      if (!fn) {
        fn = observed(name, value as (...args: unknown[]) => unknown, target, listener);
        wrapped.set(value, fn);
      }
      return fn;
    },
  });
}

function observed(
  name: PropertyKey,
  fn: (...args: unknown[]) => unknown,
  target: object,
  listener: StorageListener,
) {
  const write = typeof name === 'string' && WRITES.has(name);
  const operation = String(name);
  const took = (since: number) => listener.timed?.(operation, (performance.now() - since) / 1000);
  const failed = (error: unknown, since: number) => {
    took(since);
    const fault = storageFault(error);
    if (fault) listener.failed(fault);
    throw error;
  };
  return (...args: unknown[]) => {
    const since = performance.now();
    let answer: unknown;
    try {
      answer = fn.apply(target, args);
    } catch (error) {
      return failed(error, since);
    }
    if (!(answer instanceof Promise)) {
      took(since);
      return answer;
    }
    return answer.then(
      (value: unknown) => {
        took(since);
        listener.succeeded('unreachable');
        if (write) listener.succeeded('write');
        return value;
      },
      (error: unknown) => failed(error, since),
    );
  };
}

/**
 * Logs a failure on stderr, unless it is a fault of the database: the service's health
 * (status/health.ts) tells those once with their cause, then counts them.
 */
export function logFailure(what: string, error: unknown): void {
  if (!storageFault(error)) console.error(what, error);
}
