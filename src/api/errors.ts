// One error type for everything that can go wrong talking to the service, so a
// view can say exactly what happened: the network, a timeout, an HTTP answer, or
// a body we could not read.
import { sanitize } from '../domain/sanitize.js';
import type { ApiErrorBody } from './schemas/index.js';

export type ApiErrorKind = 'network' | 'timeout' | 'http' | 'decode';

export interface ApiErrorInit {
  kind: ApiErrorKind;
  message: string;
  endpoint: string;
  status?: number | undefined;
  serverMessage?: string | undefined;
  details?: ApiErrorBody['details'] | undefined;
  /** The error body's `code` and `endedAt`, when it had them. */
  code?: string | undefined;
  endedAt?: string | undefined;
  retryable: boolean;
  retryAfterMs?: number | undefined;
}

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly kind: ApiErrorKind;
  /** "GET /v1/check-statuses": which call failed, never with credentials. */
  readonly endpoint: string;
  readonly status: number | undefined;
  readonly serverMessage: string | undefined;
  readonly details: ApiErrorBody['details'] | undefined;
  readonly code: string | undefined;
  readonly endedAt: string | undefined;
  readonly retryable: boolean;
  readonly retryAfterMs: number | undefined;

  constructor(init: ApiErrorInit) {
    super(init.message);
    this.kind = init.kind;
    this.endpoint = init.endpoint;
    this.status = init.status;
    this.serverMessage = init.serverMessage;
    this.details = init.details;
    this.code = init.code;
    this.endedAt = init.endedAt;
    this.retryable = init.retryable;
    this.retryAfterMs = init.retryAfterMs;
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}

/** Seconds or an HTTP date, as Retry-After allows; undefined when absent or unreadable. */
export { parseRetryAfter } from '../domain/retry-after.js';

/**
 * The service's own trouble: a 503 with its reason ("the database is
 * unreachable"), which is no fault of the console or its link.
 */
export function serviceTroubleOf(error: unknown): string | undefined {
  if (!isApiError(error) || error.status !== 503) return undefined;
  return error.serverMessage?.trim() ? error.serverMessage : undefined;
}

/** A short human sentence for a status line: "timeout: GET /v1/check-statuses …". */
/** One line for a terminal or a log: the message may be the server's, so it is sanitised. */
export function describeError(error: unknown): string {
  const trouble = serviceTroubleOf(error);
  if (trouble !== undefined) return `service: ${trouble}`;
  if (isApiError(error)) {
    const status = error.status === undefined ? '' : ` ${error.status}`;
    return sanitize(`${error.kind}${status}: ${error.message}`);
  }
  return sanitize(error instanceof Error ? error.message : String(error));
}
