// The HTTP probe's keys of an api or url check (docs/service.md, "The probe's rules"),
// read by the runner in one place (runners/http-options.ts).
import { z } from 'zod';

export const PROBE_KEYS = {
  /**
   * api/url (docs/service.md, "The probe's rules"): redirects are followed to the final
   * answer unless this is false. Left unset it follows; a check that asserts a 3xx status
   * without setting it is warned of at load (it likely meant the redirect itself).
   */
  followRedirects: z.boolean().optional(),
  /** api/url: more redirects than this fail the run, naming the count. */
  maxRedirects: z.number().int().min(0).max(30).default(10),
  /** api/url: let a public target redirect to a loopback, private or link-local address. */
  allowPrivateRedirects: z.boolean().default(false),
  /** api/url: send `Accept-Encoding: gzip, deflate, br` (the check's own header wins); false sends none. */
  acceptEncoding: z.boolean().default(true),
  /**
   * api/url: `ca`, the certificates (PEM) trusted instead of the system's roots, for a
   * private CA: a file (relative to the config file), read at load, or the PEM itself.
   */
  tls: z.strictObject({ ca: z.string().min(1) }).optional(),
};
