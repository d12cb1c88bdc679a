// Whether a client takes a gzipped answer: the status page (a browser) and /metrics
// (Prometheus sends Accept-Encoding: gzip) send their large answers compressed.
import type { FastifyRequest } from 'fastify';

/** Whether the request's Accept-Encoding takes gzip (and does not refuse it with q=0). */
export function acceptsGzip(req: Pick<FastifyRequest, 'headers'>): boolean {
  const header = req.headers['accept-encoding'];
  if (typeof header !== 'string') return false;
  return header.split(',').some((part) => {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (name !== 'gzip' && name !== '*') return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}
