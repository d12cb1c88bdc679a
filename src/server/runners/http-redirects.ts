// The rules of following a redirect (docs/service.md, "The probe's rules"): which
// answers are followed and where to, the request sent there, and when the chain
// stops with an error instead of an answer.
import type { HopRequest } from './http-hop.js';
import { namedError } from './result.js';

const FOLLOWED = new Set([301, 302, 303, 307, 308]);

/** Headers about a body, dropped with the body when a redirect turns a request into a GET. */
const BODY_HEADERS = new Set(['content-type', 'content-length', 'content-encoding', 'transfer-encoding']);

const redirectError = (message: string) => namedError('RedirectError', message);

/** Where this answer sends the run: nowhere (not a redirect), a URL, or an error saying why not. */
export function redirectOf(
  statusCode: number,
  location: string | undefined,
  from: URL,
): { to: URL } | { error: Error } | null {
  if (!FOLLOWED.has(statusCode) || location === undefined) return null;
  let to: URL;
  try {
    to = new URL(asSent(location), from);
  } catch {
    return { error: redirectError(`the redirect's Location is not a URL: ${location.slice(0, 200)}`) };
  }
  if (to.protocol !== 'http:' && to.protocol !== 'https:')
    return { error: redirectError(`the redirect to ${to.href} was not followed: only http and https are`) };
  to.hash = '';
  return { to };
}

/**
 * A Location as its bytes: undici hands a header's bytes over as latin1 characters,
 * so a UTF-8 `/café` arrives as `/cafÃ©`, which the URL parser would encode again
 * (`/caf%C3%83%C2%A9`). Each byte beyond ASCII is percent-encoded instead, as the
 * exporter (Go) and curl send it (`/caf%C3%A9`); a host so encoded is still made IDNA.
 */
function asSent(location: string): string {
  return location.replace(/[\x80-\xff]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * The request a redirect leads to: a GET without the body after a 303 (a HEAD stays a
 * HEAD) and after a 301 or 302 answering a POST, as browsers do; the same method and
 * body otherwise (307 and 308 require it). `headersFor` gives the headers a URL may be
 * sent (a check's own headers go to its own origin only).
 */
export function followRequest(
  previous: HopRequest,
  statusCode: number,
  to: URL,
  headersFor: (url: URL) => Record<string, string>,
): HopRequest {
  const toGet =
    statusCode === 303
      ? previous.method !== 'HEAD'
      : (statusCode === 301 || statusCode === 302) && previous.method === 'POST';
  if (!toGet) return { url: to, method: previous.method, headers: headersFor(to), body: previous.body };
  const headers = Object.fromEntries(
    Object.entries(headersFor(to)).filter(([name]) => !BODY_HEADERS.has(name.toLowerCase())),
  );
  return { url: to, method: 'GET', headers, body: null };
}

/** Why the chain stops before `to` (a URL seen before, or one redirect too many), or null. */
export function chainError(visited: readonly string[], to: string, maxRedirects: number): Error | null {
  const seen = visited.indexOf(to);
  if (seen >= 0) return redirectError(`redirect loop: ${[...visited.slice(seen), to].join(' → ')}`);
  if (visited.length > maxRedirects)
    return redirectError(`more than ${maxRedirects} redirects: stopped before ${to}`);
  return null;
}
