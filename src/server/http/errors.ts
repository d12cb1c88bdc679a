// The one error body of every answer that is not a success (docs/decisions.md#errors).
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { zodIssues, type ApiErrorBody } from '../../api/schemas.js';

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
};

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly details?: ApiErrorBody['details'],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export function errorBody(
  statusCode: number,
  message: string,
  details?: ApiErrorBody['details'],
): ApiErrorBody {
  const body: ApiErrorBody = { statusCode, error: REASONS[statusCode] ?? 'Error', message };
  if (details && details.length > 0) body.details = details;
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
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const details = zodDetails(parsed.error, prefix);
  throw new HttpError(
    400,
    `invalid ${what}: ${details.map((d) => `${d.path || '(body)'}: ${d.message}`).join('; ')}`,
    details,
  );
}

export function handleError(error: FastifyError | HttpError, _req: FastifyRequest, reply: FastifyReply) {
  if (error instanceof HttpError) {
    return reply
      .code(error.statusCode)
      .headers(error.headers)
      .send(errorBody(error.statusCode, error.message, error.details));
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    const message =
      error.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
        ? 'the body is larger than the service accepts'
        : error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
          ? 'send the body as application/json'
          : error.message;
    return reply.code(status).send(errorBody(status, message));
  }
  // A bug of ours: say so without leaking internals.
  console.error('checkwall serve: unexpected error', error);
  return reply.code(500).send(errorBody(500, 'the service failed unexpectedly'));
}
