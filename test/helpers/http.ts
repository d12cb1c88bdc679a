// Requests to the project's service in tests, with the test account's key unless a
// test names other headers: one home for what many test files once wrote each.
import { TEST_ACCOUNT, TEST_KEY } from './service.js';

export const AUTH = {
  authorization: `Bearer ${TEST_KEY}`,
  'x-service-account': TEST_ACCOUNT,
};

/** A service (or anything with its address), or the address itself. */
export type Base = { url: string } | string;

export interface Answer {
  status: number;
  /** The JSON body, or null when there was none. */
  body: Record<string, unknown>;
}

/**
 * One request, its JSON body read. A string body goes as it is (the malformed body a test
 * means to send), anything else as JSON.
 */
export async function call(
  base: Base,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = AUTH,
): Promise<Answer> {
  const url = `${typeof base === 'string' ? base : base.url}${path}`;
  const res = await fetch(url, {
    method,
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as Record<string, unknown> };
}

export const get = (base: Base, path: string, headers: Record<string, string> = AUTH) =>
  call(base, 'GET', path, undefined, headers);

export const post = (base: Base, path: string, body?: unknown, headers: Record<string, string> = AUTH) =>
  call(base, 'POST', path, body, headers);

export const put = (base: Base, path: string, body: unknown, headers: Record<string, string> = AUTH) =>
  call(base, 'PUT', path, body, headers);

export const patch = (base: Base, path: string, body: unknown, headers: Record<string, string> = AUTH) =>
  call(base, 'PATCH', path, body, headers);
