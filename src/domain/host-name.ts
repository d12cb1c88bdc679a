// A Host header's name, or a custom domain someone wrote as a URL, as compared:
// lower case, without scheme, path or port. Shared by the host guard, the status
// page's custom domains and the config's check that no two dashboards share one.

/** The name of a host[:port] (or of a URL someone wrote as a custom domain), lower case, without its port. */
export function hostName(value: string): string {
  const host = value
    .toLowerCase()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//, '')
    .split('/')[0]!;
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1);
  return host.replace(/:\d*$/, '');
}
