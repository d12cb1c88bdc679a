// A key of `http:` (docs/security.md): the Host values the service answers.
import { z } from 'zod';

/**
 * A Host value as a request sends it: a name or an IP (IPv6 in brackets), and a port
 * or not. A URL (`https://checkwall.example.com`, copied from publicUrl) matched no
 * request: every one got 421.
 */
export const AllowedHostSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(
    /^(\[[0-9a-f:.]+\]|[a-z0-9_-]+(\.[a-z0-9_-]+)*\.?)(:\d{1,5})?$/,
    'must be a host name or name:port as a request names it, e.g. checkwall.example.com (no scheme, no path)',
  );
