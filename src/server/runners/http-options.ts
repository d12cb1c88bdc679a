// How the HTTP probe behaves for one check (docs/service.md, "The probe's rules"):
// the check's keys followRedirects, maxRedirects, allowPrivateRedirects,
// acceptEncoding and tls.ca are read here and nowhere else; the run context's `ca`
// (tests' own CAs) stands where a check names none.
import type { CheckConfig } from '../config/schema.js';
import type { RunContext } from './types.js';
import type { BodyLimits } from './http-body.js';
import { nonPublicRange } from './address-range.js';

export interface ProbeOptions {
  /** Follow 301, 302, 303, 307 and 308 to the final answer (config: followRedirects). */
  followRedirects: boolean;
  /** More redirects than this fail the run (config: maxRedirects). */
  maxRedirects: number;
  /** Let a public target redirect to a loopback, private or link-local address (config: allowPrivateRedirects). */
  allowPrivateRedirects: boolean;
  /** Sent unless the check sends its own accept-encoding (config: acceptEncoding). */
  acceptEncoding: string;
  /** PEM certificates trusted instead of the system's roots (config: tls.ca). */
  ca: string | undefined;
  /** How much of a decoded body is kept (for assertions and the stored body) and counted. */
  body: BodyLimits;
  /** Why an address is not public (its range, e.g. "link-local"), or null when it is. */
  nonPublic(address: string): string | null;
}

/** Bodies are read this far for assertions, whatever is stored. */
export const ASSERTION_BODY_BYTES = 1024 * 1024;

/**
 * An answer's head (status line and headers) is read this far, as Chrome reads it
 * (ERR_RESPONSE_HEADERS_TOO_BIG past it): undici's own default, Node's 16 KiB, fails
 * sites with big cookies or policies that every browser shows.
 */
export const MAX_HEADER_BYTES = 256 * 1024;

export const PROBE_DEFAULTS: ProbeOptions = {
  followRedirects: true,
  maxRedirects: 10,
  allowPrivateRedirects: false,
  acceptEncoding: 'gzip, deflate, br',
  ca: undefined,
  body: { keep: ASSERTION_BODY_BYTES, count: 64 * 1024 * 1024 },
  nonPublic: nonPublicRange,
};

/** The options of one run of this check. */
export function probeOptions(
  check: CheckConfig,
  ctx: Pick<RunContext, 'ca' | 'maxStoredBodyBytes'>,
): ProbeOptions {
  // A stored body may be asked to be longer than the assertions' part: it is kept whole.
  const body = { ...PROBE_DEFAULTS.body, keep: Math.max(ctx.maxStoredBodyBytes, ASSERTION_BODY_BYTES) };
  return {
    ...PROBE_DEFAULTS,
    followRedirects: check.followRedirects ?? PROBE_DEFAULTS.followRedirects,
    maxRedirects: check.maxRedirects,
    allowPrivateRedirects: check.allowPrivateRedirects,
    acceptEncoding: check.acceptEncoding ? PROBE_DEFAULTS.acceptEncoding : '',
    ca: check.tls?.ca ?? ctx.ca,
    body,
  };
}
