// The JSON body parser: fastify's own refuses a body with a `__proto__` key (good)
// but says only "Body is not valid JSON"; this one says why it refuses a body.
import type { FastifyRequest } from 'fastify';
import { HttpError } from './errors.js';

export function parseJsonBody(
  _req: FastifyRequest,
  text: string,
  done: (error: Error | null, body?: unknown) => void,
) {
  if (text.length === 0)
    return done(new HttpError(400, 'the body is empty: send a JSON value, or no Content-Type'));
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    // The position only: the parser's message quotes the body back.
    const at = /position (\d+)/.exec((error as Error).message)?.[1];
    return done(
      new HttpError(400, `the body is not valid JSON${at === undefined ? '' : ` (at character ${at})`}`),
    );
  }
  const key = poisonedKey(body);
  if (key)
    return done(
      new HttpError(
        400,
        `the body has a "${key}" key, which the service refuses: it would change what objects inherit`,
      ),
    );
  done(null, body);
}

/** A `__proto__` or `constructor.prototype` key anywhere in a parsed body, else undefined. */
function poisonedKey(body: unknown): string | undefined {
  const stack: unknown[] = [body];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value !== 'object' || value === null) continue;
    if (Array.isArray(value)) {
      for (const item of value) if (typeof item === 'object' && item !== null) stack.push(item);
      continue;
    }
    if (Object.hasOwn(value, '__proto__')) return '__proto__';
    const record = value as Record<string, unknown>;
    const ctor = Object.hasOwn(value, 'constructor') ? record['constructor'] : undefined;
    if (typeof ctor === 'object' && ctor !== null && Object.hasOwn(ctor, 'prototype'))
      return 'constructor.prototype';
    for (const k of Object.keys(record)) {
      const item = record[k];
      if (typeof item === 'object' && item !== null) stack.push(item);
    }
  }
  return undefined;
}
