// bench:service -- status-page: the page of a 200-check public dashboard and its
// badges on a service with 10,000 checks (docs/status-page.md; its aims: page p99 < 20 ms,
// a badge < 5 ms, 304 for an unchanged page). The 200 checks carry 90 days of results
// (so the page's 90-day bars and charts read real roll-ups); the other 9,800
// have statuses only. Requests one at a time over real HTTP on loopback.
import { randomUUID } from 'node:crypto';
import { request } from 'undici';
import type { CheckResult } from '../src/api/schemas/index.js';
import { ServiceConfigSchema } from '../src/server/config/schema.js';
import { sampleResult } from '../test/helpers/samples.js';
import { fmt, quantiles } from './report.js';
import { BENCH_ACCOUNT as ACCOUNT, benchService } from './fixtures.js';

const CHECKS = Number(process.env.BENCH_CHECKS ?? 10_000);
const ON_PAGE = 200;
const DAYS = 90;
const RUNS_A_DAY = 6;
const LOCATION = { id: 'eu-west', name: 'Frankfurt', region: 'eu-central-1' };

function config() {
  return ServiceConfigSchema.parse({
    http: { rateLimit: { publicReadsPerSecond: 1_000_000 } },
    accounts: [
      {
        id: ACCOUNT,
        apiKeys: ['cw_bench_0123456789abcdef'],
        locations: [LOCATION],
        checks: Array.from({ length: CHECKS }, (_, i) => ({
          id: `c${i}`,
          name: `Check ${i}`,
          type: 'api',
          target: 'http://127.0.0.1:9/',
          frequency: '1m',
          locations: [LOCATION.id],
        })),
        dashboards: [
          {
            id: 'public',
            name: 'Acme status',
            customUrl: 'acme',
            isPrivate: false,
            checkIds: Array.from({ length: ON_PAGE }, (_, i) => `c${i * 50}`),
            configuration: { showIncidents: true },
            widgets: [
              { type: 'status_overview', position: 1, title: 'Now', settings: { showPercentage: true } },
              { type: 'check_list', position: 2, title: 'Services', settings: { showLastResult: true } },
              {
                type: 'metrics_chart',
                position: 3,
                title: 'Response time',
                settings: { metric: 'averageResponseTime', timeRange: '30d' },
              },
            ],
          },
        ],
      },
    ],
  });
}

async function timed(url: string, n: number, headers: Record<string, string> = {}, status = 200) {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const res = await request(url, { headers });
    await res.body.dump();
    if (res.statusCode !== status) throw new Error(`${url} answered ${res.statusCode}, not ${status}`);
    out.push(performance.now() - t);
  }
  return out;
}

const kb = (bytes: number) => `${Math.round(bytes / 1024).toLocaleString('en')} KB`;

export async function statusPageRows(): Promise<string> {
  const bench = await benchService(config());
  const { service } = bench;
  try {
    const now = Date.now();
    const t0 = performance.now();
    for (let p = 0; p < ON_PAGE; p++) {
      const checkId = `c${p * 50}`;
      const batch: CheckResult[] = [];
      for (let i = 0; i < DAYS * RUNS_A_DAY; i++) {
        const startedAt = now - i * (86_400_000 / RUNS_A_DAY) - 60_000;
        const rt = 40 + ((i * 37 + p) % 300);
        const failed = (i + p) % 41 === 0;
        batch.push(
          sampleResult(randomUUID(), {
            checkId,
            checkName: `Check ${p * 50}`,
            status: failed ? 'failed' : 'success',
            startedAt: new Date(startedAt).toISOString(),
            finishedAt: new Date(startedAt + rt).toISOString(),
            duration: rt,
            location: LOCATION,
          }),
        );
      }
      await service.storage.insertResults(ACCOUNT, batch);
    }
    const seeded = (performance.now() - t0) / 1000;
    process.stderr.write(`status page: seeded in ${seeded.toFixed(1)} s; warming ${CHECKS} statuses\n`);
    const pairs = service.accounts
      .all()
      .flatMap((account) => account.checks.map((check) => ({ account, check })));
    service.engine.rereadAll();
    await service.engine.warm(pairs, 120_000);

    const page = `${service.url}/status/acme`;
    const badge = `${service.url}/status/acme/badges/c50/status.svg`;
    const uptime = `${service.url}/status/acme/badges/c50/uptime.svg?period=30d`;
    process.stderr.write('status page: measuring\n');
    const t1 = performance.now();
    await timed(page, 1);
    process.stderr.write(`status page: first page ${(performance.now() - t1).toFixed(0)} ms\n`);
    await timed(page, 20); // warm-up: the first reads fill SQLite's page cache
    const gz = { 'accept-encoding': 'gzip, deflate, br' };
    const pages = await timed(page, Number(process.env.BENCH_PAGES ?? 300), gz);
    const plainPages = await timed(page, 100);
    const badges = await timed(badge, 500);
    const uptimes = await timed(uptime, 500);
    // Conditional reads: each with the ETag of the page as last seen; a 200 (the page moved) brings a new one.
    let etag = '';
    let notModified = 0;
    const unchanged: number[] = [];
    for (let i = 0; i < 300; i++) {
      const t = performance.now();
      const res = await request(page, { headers: etag ? { ...gz, 'if-none-match': etag } : gz });
      await res.body.dump();
      unchanged.push(performance.now() - t);
      if (res.statusCode === 304) notModified++;
      else etag = String(res.headers.etag);
    }
    const sized = await request(page, { headers: gz });
    const gzBytes = (await sized.body.arrayBuffer()).byteLength;
    const plainBytes = (await (await request(page)).body.arrayBuffer()).byteLength;
    const [p, b, u, n, q] = [pages, badges, uptimes, unchanged, plainPages].map(quantiles);
    const row = (what: string, q: ReturnType<typeof quantiles>) =>
      `| ${what} | ${fmt(q.p50)} | ${fmt(q.p99)} | ${fmt(q.max)} |`;
    return `The status page (issue 34): ${CHECKS.toLocaleString('en')} checks, a public dashboard of ${ON_PAGE} of them
(status overview, check list with 90-day bars, a 30-day response-time chart), each of the ${ON_PAGE} with
${DAYS} days of results (${(ON_PAGE * DAYS * RUNS_A_DAY).toLocaleString('en')}, seeded in ${seeded.toFixed(1)} s,
roll-ups written with them). Requests one at a time over real HTTP on 127.0.0.1.

| request | p50 | p99 | max |
|---|---|---|---|
${row(`\`GET /status/acme\` (${ON_PAGE} checks) as a browser asks (gzip, ${kb(gzBytes)}), ${pages.length} requests`, p!)}
${row(`the same without Accept-Encoding (${kb(plainBytes)}), ${plainPages.length} requests`, q!)}
${row(`the same with \`If-None-Match\` of the ETag last seen (${notModified} of ${unchanged.length} answered 304)`, n!)}
${row('`GET …/badges/{checkId}/status.svg`', b!)}
${row('`GET …/badges/{checkId}/uptime.svg?period=30d` (from the daily roll-ups)', u!)}`;
  } finally {
    await bench.close();
  }
}
