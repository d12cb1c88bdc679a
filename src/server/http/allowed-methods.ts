// A path that is a route's asked with a method the route does not take is a 405 naming
// the methods it does (RFC 9110 §15.5.6, with `Allow`), not a 404 saying there is no
// such route: `curl -X DELETE …/v1/check-statuses` learns what it may do there. Fastify
// answers both as not found, so the routes' patterns are kept as they are registered.
import type { FastifyInstance } from 'fastify';

interface RoutePattern {
  match: RegExp;
  methods: Set<string>;
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A route's url (`/v1/checks/:checkId/pause`, `/status/*`) as a whole-path expression. */
function expressionOf(url: string): RegExp {
  const parts = url.split(/(:[A-Za-z0-9_]+|\*)/).map((part) => {
    if (part === '*') return '.*';
    if (part.startsWith(':')) return '[^/]+';
    return escaped(part);
  });
  return new RegExp(`^${parts.join('')}$`);
}

/** Keeps each route's pattern as it is added; the answer: the methods a path takes, sorted, [] when none. */
export function watchRoutes(app: FastifyInstance): (path: string) => string[] {
  const patterns = new Map<string, RoutePattern>();
  app.addHook('onRoute', (route) => {
    const pattern = patterns.get(route.url) ?? { match: expressionOf(route.url), methods: new Set() };
    for (const method of [route.method].flat()) pattern.methods.add(method);
    patterns.set(route.url, pattern);
  });
  return (path) => {
    const methods = new Set<string>();
    for (const p of patterns.values()) if (p.match.test(path)) for (const m of p.methods) methods.add(m);
    return [...methods].sort();
  };
}
