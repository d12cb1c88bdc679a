// The one error body of every answer that is not a success (docs/decisions.md#errors).
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { zodIssues, type ApiErrorBody } from '../../api/schemas/index.js';
import { MAX_PATH_PARAM_LENGTH } from '../../domain/path-limits.js';
import { storageFault } from '../storage/observed.js';

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  421: 'Misdirected Request',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

// How soon a client may ask again while the database is in trouble (a restart, a disk freed).
const RETRY_AFTER_S = { unreachable: 5, write: 30 } as const;
const FAULT_MESSAGES = {
  unreachable: 'the database is unreachable',
  write: 'the database cannot store anything now (its disk is full or failing)',
} as const;

/** Members of an error body beyond its message and details. */
export type ErrorExtra = Pick<ApiErrorBody, 'requiredRole' | 'code' | 'endedAt'>;

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly details?: ApiErrorBody['details'],
    readonly headers: Record<string, string> = {},
    /** Members of the error body beyond the message and details (a 403's requiredRole). */
    readonly extra: ErrorExtra = {},
  ) {
    super(message);
  }
}

export function errorBody(
  statusCode: number,
  message: string,
  details?: ApiErrorBody['details'],
  extra: ErrorExtra = {},
): ApiErrorBody {
  const body: ApiErrorBody = { statusCode, error: REASONS[statusCode] ?? 'Error', message };
  if (details && details.length > 0) body.details = details;
  if (extra.requiredRole !== undefined) body.requiredRole = extra.requiredRole;
  if (extra.code !== undefined) body.code = extra.code;
  if (extra.endedAt !== undefined) body.endedAt = extra.endedAt;
  return body;
}

export function zodDetails(error: z.ZodError, prefix = ''): NonNullable<ApiErrorBody['details']> {
  return zodIssues(error, prefix);
}

/** Parses with a shared schema or throws a 400 naming every bad field. */
export function parseOr400<S extends z.ZodType>(
  schema: S,
  value: unknown,
  what: string,
  prefix = '',
): z.output<S> {
  if (what === 'path') tooLongIs404(value);
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const details = zodDetails(parsed.error, prefix).map((d) =>
    unknownParameter(schema, what, repeated(value, what, d)),
  );
  throw new HttpError(
    400,
    `invalid ${what}: ${details.map((d) => `${d.path || whole(what)}: ${d.message}`).join('; ')}`,
    details,
  );
}

/** What an issue about the whole value is said to be about: `?=x` is a parameter, not a body. */
const whole = (what: string) => (what === 'query' ? '(a parameter without a name)' : '(body)');

const NoBodySchema = z.strictObject({});
/**
 * An action that takes no body (pause, resume, acknowledge, test) refuses one with
 * keys: `{"until": …}` on a pause was read as nothing, a pause without end that
 * its sender thought would end.
 */
export function refuseBody(body: unknown): void {
  parseOr400(NoBodySchema, body ?? {}, 'body');
}

/** A path parameter longer than any configured value can be names nothing: 404, as an unknown one. */
function tooLongIs404(params: unknown) {
  if (typeof params !== 'object' || params === null) return;
  for (const [name, v] of Object.entries(params))
    if (typeof v === 'string' && v.length > MAX_PATH_PARAM_LENGTH)
      throw new HttpError(404, `nothing here: a ${name} is at most ${MAX_PATH_PARAM_LENGTH} characters`);
}

/** A query parameter given twice (`?status=a&status=b`) arrives as an array: say that, not "Invalid input". */
function repeated(value: unknown, what: string, detail: NonNullable<ApiErrorBody['details']>[number]) {
  if (what !== 'query' || typeof value !== 'object' || value === null) return detail;
  const name = detail.path.split(/[.[]/)[0]!;
  return Object.hasOwn(value, name) && Array.isArray((value as Record<string, unknown>)[name])
    ? { path: name, message: 'is given more than once: give it once' }
    : detail;
}

/**
 * A query parameter the route does not know is refused, naming those it takes: `?staus=failing`
 * read as nothing would answer the whole list as if filtered (docs/decisions.md#errors).
 */
function unknownParameter(
  schema: z.ZodType,
  what: string,
  detail: NonNullable<ApiErrorBody['details']>[number],
) {
  if (what !== 'query' || !(schema instanceof z.ZodObject) || !detail.message.startsWith('unknown key'))
    return detail;
  const known = Object.keys(schema.shape as Record<string, unknown>).join(', ') || 'none';
  return { path: detail.path, message: `is no parameter of this route (it takes ${known})` };
}

/**
 * Errors fastify meets before a route runs (fastify's frameworkErrors): a path
 * parameter longer than any configured value can be names nothing (404, not 414);
 * a URL that is not valid percent-encoding is a 400.
 */
export function handleFrameworkError(error: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  const path = req.url.split('?')[0];
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH')
    return reply.code(404).send(errorBody(404, `no route ${req.method} ${path}`));
  if (error.code === 'FST_ERR_BAD_URL')
    return reply
      .code(400)
      .send(errorBody(400, 'the URL is not valid: a % is not followed by two hex digits'));
  return handleError(error, req, reply);
}

/**
 * Requests node's parser refuses before fastify sees them (fastify's clientErrorHandler):
 * headers too large (431), too slow to arrive (408), not HTTP (400). Answered in the
 * error body, and the connection closes.
 */
export function handleClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'the request line and headers are larger than the service accepts']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'the request did not arrive in time']
        : [400, 'the request is not valid HTTP'];
  const body = JSON.stringify(errorBody(status, message));
  if (socket.writable)
    socket.write(
      `HTTP/1.1 ${status} ${REASONS[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  socket.destroy();
}

// Fastify's own 4xx, told in our words.
const FRAMEWORK_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'the body is larger than the service accepts',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'send the body as application/json',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'the body is empty: send a JSON value, or no Content-Type',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'the body is not as long as its Content-Length says',
  FST_ERR_CTP_INVALID_JSON_BODY: 'the body is not valid JSON',
};

export function handleError(error: FastifyError | HttpError, _req: FastifyRequest, reply: FastifyReply) {
  if (error instanceof HttpError) {
    return reply
      .code(error.statusCode)
      .headers(error.headers)
      .send(errorBody(error.statusCode, error.message, error.details, error.extra));
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    const message = FRAMEWORK_MESSAGES[error.code] ?? error.message;
    return reply.code(status).send(errorBody(status, message));
  }
  // The database's trouble, not the request's nor ours: the service's health has logged it (status/health.ts).
  const fault = storageFault(error);
  if (fault)
    return reply
      .code(503)
      .header('retry-after', String(RETRY_AFTER_S[fault.kind]))
      .send(errorBody(503, FAULT_MESSAGES[fault.kind]));
  // A bug of ours: say so without leaking internals.
  console.error('checkwall serve: unexpected error', error);
  return reply.code(500).send(errorBody(500, 'the service failed unexpectedly'));
}
