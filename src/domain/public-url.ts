// `checkwall --public URL`: the address of a public dashboard as a browser or a
// colleague would paste it, split into the service's base URL and the slug.
export interface PublicTarget {
  baseUrl: string;
  slug: string;
}

const SHAPE = 'http(s)://host[:port]/v1/public/dashboards/SLUG';
const PATH = /^(.*?)\/v1\/public\/dashboards\/([^/]+)\/?$/;

/** The base URL (with any path prefix before /v1) and the slug, or why the text is not such a URL. */
export function parsePublicUrl(text: string): PublicTarget | { error: string } {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return { error: `--public takes a URL like ${SHAPE}, got "${text}"` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { error: `--public takes an http:// or https:// URL (${SHAPE}), got "${text}"` };
  const m = PATH.exec(url.pathname);
  if (!m || url.search || url.hash) return { error: `--public takes a URL like ${SHAPE}, got "${text}"` };
  let slug: string;
  try {
    slug = decodeURIComponent(m[2]!);
  } catch {
    return { error: `the dashboard slug in "${text}" is not valid URL encoding` };
  }
  if (url.username || url.password)
    return { error: '--public reads without credentials: leave user and password out of the URL' };
  return { baseUrl: `${url.protocol}//${url.host}${m[1]}`, slug };
}
