// bench:browser — the browser runner in the machine's Chromium against the
// demo's pages on loopback: the first run (it starts the browser), then
// sequential page loads and signup journeys, wall time per run.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AccountConfigSchema, CheckConfigSchema } from '../src/server/config/schema.js';
import { CHECKOUT_PAGE, SIGNUP_PAGE } from '../src/server/demo/pages.js';
import { createRunner } from '../src/server/runners/index.js';
import { fmt, quantiles, writeSection } from './report.js';

const RUNS = Number(process.env['BENCH_RUNS'] ?? 20);
const LOCATION = { id: 'eu-west', name: 'Frankfurt', region: 'eu-central-1' };
const account = AccountConfigSchema.parse({
  id: '0b6f3c52-7c1e-4d8a-9f2b-3c4d5e6f7a8b',
  apiKeys: ['k'.repeat(16)],
  locations: [LOCATION],
});
const ctx = {
  lastPingAt: () => Promise.resolve(null),
  maxStoredBodyBytes: 1024,
  signal: new AbortController().signal,
  now: Date.now,
};

async function serve(): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const page = req.url === '/signup' ? SIGNUP_PAGE : CHECKOUT_PAGE;
    res.writeHead(200, { 'content-type': 'text/html' }).end(page);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function main(): Promise<void> {
  const { server, url } = await serve();
  const runner = createRunner({ maxConcurrentBrowserRuns: 2 });
  const page = CheckConfigSchema.parse({
    id: 'page',
    name: 'Page',
    type: 'browser',
    target: `${url}/shop/checkout`,
    locations: [LOCATION.id],
  });
  const journey = CheckConfigSchema.parse({
    id: 'journey',
    name: 'Journey',
    type: 'multistep',
    target: `${url}/signup`,
    locations: [LOCATION.id],
    steps: [
      { action: 'waitFor', selector: '#email' },
      { action: 'type', selector: '#email', text: 'ada@example.com' },
      { action: 'click', selector: '#submit' },
      { action: 'assertText', selector: '#welcome', contains: 'Welcome, ada@example.com' },
    ],
  });
  const timed = async (check: typeof page) => {
    const t = performance.now();
    const r = await runner.run(account, check, LOCATION, ctx, 'manual');
    if (r.status !== 'success') throw new Error(`${check.id} failed: ${r.error?.message}`);
    return performance.now() - t;
  };
  try {
    const first = await timed(page);
    const pages: number[] = [];
    const journeys: number[] = [];
    for (let i = 0; i < RUNS; i++) pages.push(await timed(page));
    for (let i = 0; i < RUNS; i++) journeys.push(await timed(journey));
    const row = (name: string, s: number[]) => {
      const q = quantiles(s);
      return `| ${name} | ${fmt(q.p50)} | ${fmt(q.p95)} | ${fmt(q.max)} |`;
    };
    writeSection(
      'bench:browser',
      `The browser runner (\`createRunner\`) against the demo's checkout page and signup journey on
loopback, one run at a time, ${RUNS} of each after a first run that starts the browser. Wall time of
\`run()\`, which includes the fixed settle after the load (up to 1 s of network quiet) and the context.

| run | p50 | p95 | max |
|---|---|---|---|
| first run (starts Chromium) | ${fmt(first)} | | |
${row('page load (browser check)', pages)}
${row('signup journey (multistep, 4 steps)', journeys)}
`,
    );
  } finally {
    await runner.close();
    server.closeAllConnections();
    server.close();
  }
}

await main();
