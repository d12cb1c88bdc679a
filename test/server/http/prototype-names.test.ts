// The names an object inherits (`constructor`, `toString`, `__proto__`, …) sent
// as every path parameter and as every query parameter the API's schemas name,
// on every route of fastify's route table (a route added later is covered
// without editing this file), on SQLite and on PostgreSQL. A name looked up
// in a plain object as if it were its own once read Object's prototype: a 200
// on SQLite, a 500 on PostgreSQL (the uptime badge's `?period=constructor`).
// Each is answered as an unknown value is: a 4xx where an unknown value is one,
// never a 5xx.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as schemas from '../../../src/api/schemas/index.js';
import { HttpConfigSchema } from '../../../src/server/config/schema.js';
import { AUTH } from '../../helpers/http.js';
import { testPostgres } from '../../helpers/postgres.js';
import { routeTable, type TableRoute } from '../../helpers/route-table.js';
import { startTestService, testConfig, type TestService } from '../../helpers/service.js';

const PROTOTYPE_NAMES = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'];
const UNKNOWN = 'zz-no-such-value';
/** A value that exists for each path parameter, so the request reaches the one under test. */
const KNOWN: Record<string, string> = {
  slug: 'status',
  customUrl: 'status',
  checkId: 'c2',
  checkType: 'api',
};

/** Every query parameter the API's schemas name, and the badges' `period`. */
function queryNames(): string[] {
  const names = new Set(['period']);
  for (const [name, schema] of Object.entries(schemas)) {
    if (!name.endsWith('QuerySchema')) continue;
    const shape = (schema as { shape?: Record<string, unknown> }).shape;
    for (const key of Object.keys(shape ?? {})) names.add(key);
  }
  return [...names];
}

const postgres = testPostgres();

function config() {
  return {
    ...testConfig(3),
    http: HttpConfigSchema.parse({
      rateLimit: { failedAuthPerMinute: 1_000_000, publicReadsPerSecond: 1_000_000, holdRefusedSeconds: 0 },
    }),
  };
}

const pathOf = (route: TableRoute, values: Record<string, string>) =>
  route.url.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(values[name] ?? KNOWN[name] ?? 'x'));

/** Up to 8 requests at a time: a few thousand in all. */
async function each<T>(items: T[], fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}

describe.each([
  { storage: 'SQLite', dbPath: () => Promise.resolve(':memory:') },
  { storage: 'PostgreSQL', dbPath: () => postgres.freshDatabase() },
])('prototype names as request input on $storage', { timeout: 60_000 }, ({ dbPath }) => {
  let svc: TestService;
  let routes: TableRoute[];
  beforeAll(async () => {
    svc = await startTestService({ config: config(), dbPath: await dbPath() });
    routes = routeTable(svc.app);
  }, 60_000);
  afterAll(() => svc?.close());

  /** The answer's status (bodies are JSON, HTML, SVG or text by route). */
  const send = async (route: TableRoute, path: string): Promise<{ status: number; json?: unknown }> => {
    const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : '{}';
    const res = await fetch(`${svc.url}${path}`, {
      method: route.method,
      headers: body ? { ...AUTH, 'content-type': 'application/json' } : AUTH,
      ...(body ? { body } : {}),
    });
    const text = await res.text();
    const json = res.headers.get('content-type')?.startsWith('application/json')
      ? JSON.parse(text)
      : undefined;
    return { status: res.status, json };
  };

  it('reads every route from the route table', () => {
    const urls = routes.map((r) => `${r.method} ${r.url}`);
    expect(urls).toContain('GET /status/:slug/badges/:checkId/uptime.svg');
    expect(urls).toContain('PATCH /v1/maintenance-windows/:id');
    expect(routes.filter((r) => r.params.length > 0).length).toBeGreaterThan(15);
  });

  it('answers a path parameter named like a prototype property with a 4xx, as any unknown one', async () => {
    const wrong: string[] = [];
    await each(
      routes.flatMap((route) =>
        route.params.flatMap((p) => PROTOTYPE_NAMES.map((name) => ({ route, p, name }))),
      ),
      async ({ route, p, name }) => {
        const path = pathOf(route, { [p]: name });
        const { status } = await send(route, path);
        if (status < 400 || status >= 500) wrong.push(`${route.method} ${path}: ${status}`);
      },
    );
    expect(wrong).toEqual([]);
  });

  /**
   * The query parameters a GET route takes from a list: all unknown at once, a JSON 400 names
   * each refused one (`details[].path`); another refusal is asked about one name at a time.
   */
  async function enumerated(route: TableRoute): Promise<string[]> {
    const base = pathOf(route, {});
    const names = queryNames();
    const plain = (await send(route, base)).status;
    const all = await send(route, `${base}?${names.map((q) => `${q}=${UNKNOWN}`).join('&')}`);
    if (all.status === plain) return [];
    const details = (all.json as { details?: Array<{ path?: unknown[] }> } | undefined)?.details;
    if (details)
      return [...new Set(details.map((d) => String(d.path?.[0])))].filter((q) => names.includes(q));
    const changed: string[] = [];
    for (const q of names)
      if ((await send(route, `${base}?${q}=${UNKNOWN}`)).status !== plain) changed.push(q);
    return changed;
  }

  it('answers an enumerated query parameter named like a prototype property with a 4xx, as an unknown value', async () => {
    const cases: Array<{ route: TableRoute; q: string }> = [];
    await each(
      routes.filter((r) => r.method === 'GET'),
      async (route) => void cases.push(...(await enumerated(route)).map((q) => ({ route, q }))),
    );
    expect(cases.map((c) => `${c.route.url}?${c.q}`)).toContain(
      '/status/:slug/badges/:checkId/uptime.svg?period',
    );
    const wrong: string[] = [];
    await each(
      cases.flatMap((c) => PROTOTYPE_NAMES.map((name) => ({ ...c, name }))),
      async ({ route, q, name }) => {
        const path = `${pathOf(route, {})}?${q}=${encodeURIComponent(name)}`;
        const { status } = await send(route, path);
        if (status < 400 || status >= 500) wrong.push(`GET ${path}: ${status}`);
      },
    );
    expect(wrong).toEqual([]);
  });
});
