// The JSON body parser: fastify's own refuses a body with a `__proto__` key (good)
// but says only "Body is not valid JSON"; this one says why it refuses a body.
import type { FastifyRequest } from 'fastify';
import { HttpError } from './errors.js';

export function parseJsonBody(
  req: FastifyRequest,
  text: string,
  done: (error: Error | null, body?: unknown) => void,
) {
  // Read as it came: a compressed body would be refused as JSON that is not valid, for
  // the wrong reason (RFC 9110, 15.5.16: a coding not supported is a 415).
  const coding = req.headers['content-encoding']?.trim().toLowerCase();
  if (coding && coding !== 'identity')
    return done(
      new HttpError(415, `the body is sent with Content-Encoding: ${coding}: send it uncompressed`),
    );
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
