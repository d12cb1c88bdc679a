// What a call of the client (client.ts) is made of: the request as the client's methods
// describe it, and the options a caller gives each call.
import type { z } from 'zod';

export interface CallOptions {
  signal?: AbortSignal | undefined;
}

export type QueryValue = string | number | boolean | string[] | undefined;

export interface Req {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, QueryValue>;
  body?: unknown;
  auth: boolean;
  /**
   * When a failed attempt is tried again: `always` (reads, and idempotent actions),
   * `refused` (only a 429, which the service answers before acting), `never`.
   * Default: `always` for GET, `never` for the rest.
   */
  retry?: 'always' | 'refused' | 'never';
  /**
   * Hand back the value parsed last time when the answer is unchanged: a 304 to the
   * ETag it came with (sent as If-None-Match), or byte for byte the same body.
   */
  reuse?: boolean;
  /** An empty answer (a 204) is read as null rather than refused as not JSON. */
  mayBeEmpty?: boolean;
}

/** One call: the request, and the schema its answer is read with. */
export type Call = <S extends z.ZodType>(req: Req, schema: S, opts?: CallOptions) => Promise<z.output<S>>;
