// The headers each request of an HTTP run is sent (docs/service.md, "The probe's
// rules", Redirects): the check's own, credentials included, go to its own origin only.
import type { CheckConfig, RunLocation } from '../config/schema.js';
import type { ProbeOptions } from './http-options.js';

/**
 * The headers a URL of this run is sent: ours (user-agent, location, accept-encoding),
 * and the check's own over them (case-insensitively: its accept-encoding wins), the
 * target URL's credentials among them, on the check's own origin only, so credentials
 * never follow a redirect to another one.
 */
export function requestHeaders(
  check: CheckConfig,
  location: Pick<RunLocation, 'id'>,
  options: ProbeOptions,
): (url: URL) => Record<string, string> {
  const target = new URL(check.target);
  const origin = target.origin;
  const ours: Record<string, string> = {
    'user-agent': 'checkwall/0.1',
    'x-checkwall-location': location.id,
    // acceptEncoding: false sends none (the server answers uncompressed).
    ...(options.acceptEncoding ? { 'accept-encoding': options.acceptEncoding } : {}),
  };
  const own = new Set(Object.keys(check.headers).map((name) => name.toLowerCase()));
  const withOwn = {
    ...Object.fromEntries(Object.entries(ours).filter(([name]) => !own.has(name))),
    ...(own.has('authorization') ? {} : basicAuth(target)),
    ...check.headers,
  };
  return (url) => (url.origin === origin ? withOwn : ours);
}

/**
 * The credentials of a target's URL (`https://user:pass@host/`) as Basic, as curl, Go
 * (the exporter) and browsers send them: undici is given the origin, which drops them.
 */
function basicAuth(url: URL): Record<string, string> {
  if (url.username === '' && url.password === '') return {};
  const pair = `${decoded(url.username)}:${decoded(url.password)}`;
  return { authorization: `Basic ${Buffer.from(pair).toString('base64')}` };
}

/** A URL's percent-encoded part as text; one that is not valid UTF-8 percent-encoding as it is. */
function decoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}
