// The messages between the UI thread and the poll worker. The UI asks for one
// poll at a time; the worker answers with what changed, or with the error, whose
// every field crosses so that the poller's backoff, Retry-After and the header's
// connection state see the same ApiError they saw when polling on this thread.
import type { ClientOptions } from '../../api/client.js';
import { ApiError, type ApiErrorInit } from '../../api/errors.js';
import type { CheckStatus } from '../../api/schemas/index.js';
import type { StatusChanges } from './poll-statuses.js';

/** What the worker needs to build its own client (a dispatcher cannot cross threads). */
export type WorkerClientOptions = Omit<ClientOptions, 'dispatcher'>;

export type ToWorker = { type: 'poll'; id: number; refreshMs: number };

export type WireError = ({ api: true } & ApiErrorInit) | { api: false; message: string };

/** A poll's changed checks come a page at a time (`part`), then the rest of its answer (`changes`). */
export type FromWorker =
  | { type: 'part'; id: number; changed: CheckStatus[] }
  | { type: 'changes'; id: number; changes: StatusChanges }
  | { type: 'failed'; id: number; error: WireError };

export function errorToWire(error: unknown): WireError {
  if (error instanceof ApiError) {
    const { kind, message, endpoint, status, serverMessage, details, retryable, retryAfterMs } = error;
    return { api: true, kind, message, endpoint, status, serverMessage, details, retryable, retryAfterMs };
  }
  return { api: false, message: error instanceof Error ? error.message : String(error) };
}

export function errorFromWire(wire: WireError): Error {
  if (!wire.api) return new Error(wire.message);
  const { api: _api, ...init } = wire;
  return new ApiError(init);
}
