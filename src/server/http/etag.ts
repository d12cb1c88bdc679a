// Conditional reads of the list endpoints: every page carries an ETag (a digest
// of the very bytes sent), and a request whose If-None-Match names it gets a
// 304 with no body. A console polling 10,000 checks asks for 100 pages every
// interval, most of them unchanged: a 304 costs the client no parsing and the
// wire no bytes. The digest is taken once per rendered page; the status list
// keeps its rendered pages beside the answer it already caches (status-list.ts).
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

export interface RenderedPage {
  /**
   * The JSON, encoded: outside V8's heap, so a page kept for its answer's life (seconds)
   * is not copied by each scavenge of the young generation and promoted, as page strings
   * were (BENCHMARKS.md, bench:service honesty, "the main thread's long tasks"); it is
   * encoded once either way.
   */
  body: Buffer;
  etag: string;
}

/** The ETag of some bytes: an identity, not a secret (120 bits of SHA-1 tell answers apart). */
export const etagOf = (bytes: string | Buffer): string =>
  `"${createHash('sha1').update(bytes).digest('base64url').slice(0, 20)}"`;

/**
 * The page's JSON and its ETag: a digest of the JSON, or of `identity` when part of
 * the page changes without meaning a change (a rolling timeframe's end).
 */
export function renderPage(body: unknown, identity?: unknown): RenderedPage {
  const bytes = Buffer.from(JSON.stringify(body));
  // The digest of the very bytes sent: the JSON is encoded once, not again by the hash.
  const basis = identity === undefined ? bytes : JSON.stringify(identity);
  return { body: bytes, etag: etagOf(basis) };
}

/** True when If-None-Match names this ETag (weakly, as RFC 9110 says GET compares) or is `*`. */
export function matchesIfNoneMatch(header: string | string[] | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const wanted = strip(etag);
  const tags = (Array.isArray(header) ? header.join(',') : header).split(',');
  return tags.some((t) => {
    const tag = t.trim();
    return tag === '*' || strip(tag) === wanted;
  });
}

const strip = (tag: string) => (tag.startsWith('W/') ? tag.slice(2) : tag);

/** Sends a rendered page, or 304 when the client already holds it. */
export function sendPage(req: FastifyRequest, reply: FastifyReply, page: RenderedPage): FastifyReply {
  // The answer depends on the credentials: a shared cache must not hand it to another.
  void reply.header('etag', page.etag).header('cache-control', 'private, no-cache');
  if (matchesIfNoneMatch(req.headers['if-none-match'], page.etag)) return reply.code(304).send();
  return reply.type('application/json; charset=utf-8').send(page.body);
}

/**
 * Rendered pages kept for as long as the answer they were cut from is kept: the
 * status list caches one answer while a client reads its pages, and every
 * console reading the same query within that time gets the same bytes and ETag
 * without serialising or digesting them again.
 */
export function createPageMemo<Owner extends object>() {
  const pages = new WeakMap<Owner, Map<string, { page: RenderedPage; with: unknown }>>();
  /** `alongside`: something else the page shows (the service's health); a new one renders it anew. */
  return (owner: Owner, key: string, alongside: unknown, body: () => unknown): RenderedPage => {
    let byKey = pages.get(owner);
    if (!byKey) pages.set(owner, (byKey = new Map()));
    let kept = byKey.get(key);
    if (!kept || kept.with !== alongside)
      byKey.set(key, (kept = { page: renderPage(body()), with: alongside }));
    return kept.page;
  };
}
