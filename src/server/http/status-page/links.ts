// Where a status page's feed points: never at the request's Host, which a client
// chooses (docs/decisions.md, "43: feed and page links"). A dashboard's custom
// domain, else the service's publicUrl, else links relative to the request's path.
import type { Dashboard } from '../../../api/schemas/index.js';
import { hostName } from '../../../domain/host-name.js';

export interface FeedLinks {
  /** The feed's Atom id: stable whatever the address, so a reader never sees a new feed. */
  id: string;
  self: string;
  page: string;
}

/** The links of a dashboard's feed; `base` is the page's path as requested (`` on its custom domain). */
export function feedLinks(
  accountId: string,
  dashboard: Pick<Dashboard, 'id' | 'customUrl' | 'customDomain'>,
  base: string,
  publicUrl: string | undefined,
): FeedLinks {
  const id = `urn:checkwall:dashboard:${encodeURIComponent(accountId)}:${encodeURIComponent(dashboard.id)}`;
  const root = absoluteRoot(dashboard, publicUrl) ?? base;
  return { id, self: `${root}/feed.atom`, page: root || '/' };
}

function absoluteRoot(
  dashboard: Pick<Dashboard, 'customUrl' | 'customDomain'>,
  publicUrl: string | undefined,
): string | undefined {
  const domain = dashboard.customDomain;
  if (domain) {
    const scheme = /^http:\/\//i.test(domain) ? 'http' : 'https';
    return `${scheme}://${hostName(domain)}`;
  }
  if (publicUrl) return `${publicUrl.replace(/\/+$/, '')}/status/${encodeURIComponent(dashboard.customUrl)}`;
  return undefined;
}
