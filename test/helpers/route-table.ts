// The routes a fastify app serves, read from its own route table
// (`printRoutes({ commonPrefix: false })`), so that a test over every route
// covers a route added later without being edited.
import type { FastifyInstance } from 'fastify';

export interface TableRoute {
  method: string;
  /** The route's URL as registered, `:name` for each path parameter. */
  url: string;
  params: string[];
}

const LINE = /^((?:[│ ] {3})*)[├└]── (.+?)(?: \(([A-Z, ]+)\))?$/u;

/** Every method and URL of the app's route table; HEAD (fastify's twin of GET) and wildcards left out. */
export function routeTable(app: FastifyInstance): TableRoute[] {
  const prefixes: string[] = [];
  const routes: TableRoute[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = LINE.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    const url = `${prefixes[depth - 1] ?? ''}${m[2]!}`;
    prefixes[depth] = url;
    prefixes.length = depth + 1;
    if (!m[3] || url.includes('*')) continue;
    const params = [...url.matchAll(/:(\w+)/g)].map((p) => p[1]!);
    for (const method of m[3].split(', ')) if (method !== 'HEAD') routes.push({ method, url, params });
  }
  return routes;
}
