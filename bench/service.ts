// bench:service — 1,000 checks and 1,000,000 results in SQLite; latency of both
// list endpoints over real HTTP, and runner throughput against a loopback target;
// then measurement honesty under load (service-honesty.ts); GET /metrics of 10,000
// checks (service-metrics.ts). `-- honesty` runs only the latter, `-- lists` only the
// first, `-- metrics` only the scrape, `-- status-page` only the status page's rows
// (status-page.ts), `-- strangers` only the flood row, `-- windows` only GET /v1/me with
// 10,000 maintenance windows stored (service-windows.ts).
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import type { CheckResult } from '../src/api/schemas/index.js';
import { AccountConfigSchema, CheckConfigSchema, ServiceConfigSchema } from '../src/server/config/schema.js';
import { runCheck } from '../src/server/runners/index.js';
import { sampleResult } from '../test/helpers/samples.js';
import { fmt, quantiles, writeSection } from './report.js';
import { honestyReport, measureHonesty } from './service-honesty.js';
import { statusPageRows } from './status-page.js';
import { scrapeReport } from './service-metrics.js';
import { startStrangerFlood } from './strangers.js';
import { windowsReport } from './service-windows.js';
import { BENCH_ACCOUNT as ACCOUNT, BENCH_LOCATIONS as LOCATIONS, benchService } from './fixtures.js';

const CHECKS = 1_000;
const PER_CHECK = 1_000;
const KEY = 'cw_bench_0123456789abcdef';

function config() {
  return ServiceConfigSchema.parse({
    accounts: [
      {
        id: ACCOUNT,
        apiKeys: [KEY],
        locations: LOCATIONS,
        groups: [{ id: 'core', name: 'Core' }],
        checks: Array.from({ length: CHECKS }, (_, i) => ({
          id: `c${i}`,
          name: `Check ${i}`,
          type: 'api',
          target: 'http://127.0.0.1:9/',
          frequency: '1m',
          locations: LOCATIONS.map((l) => l.id),
          tags: [i % 2 ? 'odd' : 'even'],
          group: 'core',
        })),
      },
    ],
  });
}

async function timed(url: string, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const res = await request(url, {
      headers: { authorization: `Bearer ${KEY}`, 'x-service-account': ACCOUNT },
    });
    await res.body.text();
    if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}`);
    out.push(performance.now() - t);
  }
  return out;
}

async function runnerThroughput(): Promise<string> {
  const target = createServer((_req, res) => res.end('{"status":"ok"}'));
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(target.address() as AddressInfo).port}/`;
  const account = AccountConfigSchema.parse({ id: ACCOUNT, apiKeys: [KEY] });
  const check = CheckConfigSchema.parse({
    id: 'x',
    name: 'x',
    type: 'api',
    target: url,
    locations: ['eu-west'],
  });
  const ctx = {
    lastPingAt: () => Promise.resolve(null),
    maxStoredBodyBytes: 65_536,
    signal: new AbortController().signal,
    now: Date.now,
  };
  const runs = 2_000;
  const t = performance.now();
  for (let batch = 0; batch < runs / 16; batch++) {
    await Promise.all(Array.from({ length: 16 }, () => runCheck(account, check, LOCATIONS[0]!, ctx, 'api')));
  }
  const seconds = (performance.now() - t) / 1000;
  target.close();
  return `${runs} HTTP runs, 16 at a time, each on a fresh connection: ${(runs / seconds).toFixed(0)} runs/s`;
}

async function main() {
  const only = process.argv[2];
  // `-- strangers`: only the flood row, printed (a quick before/after; BENCHMARKS.md untouched).
  if (only === 'strangers') return void process.stdout.write(`${await strangersOnly()}\n`);
  if (only === 'windows' || only === undefined)
    writeSection('bench:service maintenance windows', await windowsReport());
  if (only === 'windows') return;
  if (only === 'status-page' || only === undefined)
    writeSection('bench:service status page', await statusPageRows());
  if (only === 'status-page') return;
  // `-- metrics`: only the scrape of 10,000 checks (service-metrics.ts).
  if (only === 'metrics') return void writeSection('bench:service metrics', await scrapeReport());
  if (only !== 'honesty') await lists();
  if (only !== 'honesty' && only !== 'lists') writeSection('bench:service metrics', await scrapeReport());
  if (only !== 'lists')
    // `-- honesty 1000`: one load only (a before/after on a busy machine).
    await measureHonesty(process.argv[3] ? [Number(process.argv[3])] : [1_000, 10_000], 60, (rows) =>
      writeSection('bench:service honesty', honestyReport(rows)),
    );
}

async function lists() {
  const bench = await benchService(config());
  const { service } = bench;
  const now = Date.now();
  const t0 = performance.now();
  for (let c = 0; c < CHECKS; c++) {
    const batch: CheckResult[] = [];
    for (let i = 0; i < PER_CHECK; i++) {
      const startedAt = now - i * 86_000; // ~24 h of history per check
      const rt = 50 + ((i * 37 + c) % 400);
      const failed = (i + c) % 23 === 0;
      batch.push(
        sampleResult(randomUUID(), {
          checkId: `c${c}`,
          checkName: `Check ${c}`,
          status: failed ? 'failed' : 'success',
          startedAt: new Date(startedAt).toISOString(),
          finishedAt: new Date(startedAt + rt).toISOString(),
          duration: rt,
          location: LOCATIONS[i % 3]!,
          response: {
            statusCode: failed ? 500 : 200,
            statusText: '',
            headers: {},
            body: '{}',
            responseTime: rt,
            size: 2,
          },
        }),
      );
    }
    await service.storage.insertResults(ACCOUNT, batch);
  }
  const insertSeconds = (performance.now() - t0) / 1000;
  // Bulk inserts bypass the status engine, as a restart would: time one cold request, then
  // let the warmer catch up as it does in a running service, and measure over 40 s so the
  // 30 s cache lifetime passes during the run.
  service.engine.rereadAll();
  const cold = await timed(`${service.url}/v1/check-statuses?limit=100`, 1);
  service.engine.rereadAll();
  const warmStart = performance.now();
  const pairs = service.accounts
    .all()
    .flatMap((account) => account.checks.map((check) => ({ account, check })));
  await service.engine.warm(pairs, 60_000);
  const warmAll = performance.now() - warmStart;
  service.engine.rereadAll();
  await new Promise((r) => setTimeout(r, 15_000)); // the service's own warmer catches up
  const statuses: number[] = [];
  const until = performance.now() + 40_000;
  while (performance.now() < until) {
    statuses.push(
      ...(await timed(
        `${service.url}/v1/check-statuses?limit=100&page=3&status=passing&tags=odd&sortBy=availability`,
        10,
      )),
    );
    await new Promise((r) => setTimeout(r, 100));
  }
  const results = await timed(
    `${service.url}/v1/check-results/c500?status=failed&location=eu-west&responseTimeMin=100&limit=50`,
    300,
  );
  const resultsDefault = await timed(`${service.url}/v1/check-results/c42`, 300);
  const flood = await underFlood(service.url);
  const s = quantiles(statuses);
  const r = quantiles(results);
  const d = quantiles(resultsDefault);
  const throughput = await runnerThroughput();
  await bench.close();
  writeSection(
    'bench:service',
    `${CHECKS} checks x ${PER_CHECK} results = ${(CHECKS * PER_CHECK).toLocaleString('en')} results in a SQLite file, inserted in ${insertSeconds.toFixed(1)} s.
Requests over real HTTP on 127.0.0.1, one at a time.

| request | p50 | p99 | max |
|---|---|---|---|
| \`GET /v1/check-statuses\` page 3 of 100, filtered (status, tags) and sorted by availability | ${fmt(s.p50)} | ${fmt(s.p99)} | ${fmt(s.max)} |
| \`GET /v1/check-results/{id}\` filtered (status, location, responseTimeMin), 50 a page | ${fmt(r.p50)} | ${fmt(r.p99)} | ${fmt(r.max)} |
| \`GET /v1/check-results/{id}\` default (24 h, 10 a page, summary) | ${fmt(d.p50)} | ${fmt(d.p99)} | ${fmt(d.max)} |
${flood.rows}

The first statuses request with nothing cached (all 1,000 statuses computed in the request): ${fmt(cold[0] ?? 0)};
computing all 1,000 in one go: ${fmt(warmAll)}, so ${fmt(warmAll / CHECKS)} a check.
Statuses are cached per check for 30 s, dropped when a result for the check arrives (and recomputed
then, at record time), and refreshed ahead of expiry by a warmer (at most 20 ms of work every 250 ms).
The statuses figures are ${statuses.length} requests spread over 40 s, so cache expiry happened during
the run; a request right after a restart pays the cold figure once per check.

${flood.note}

Runner throughput: ${throughput}.`,
  );
}

const FLOOD_PAGE = '/v1/check-statuses?limit=100&page=2';
const FLOOD_SAMPLES = 400;

/**
 * The same statuses page, idle and then while 200 connections send wrong keys (docs/security.md):
 * what a flood of strangers costs a console. Bounded: the flood runs while the samples are taken.
 */
async function underFlood(url: string) {
  const page = `${url}${FLOOD_PAGE}`;
  await timed(page, 50); // warm
  const idle = quantiles(await timed(page, FLOOD_SAMPLES));
  const flood = startStrangerFlood(url, ACCOUNT);
  await new Promise((r) => setTimeout(r, 2_000)); // the flood's connections are open and busy
  const t = performance.now();
  const busy = quantiles(await timed(page, FLOOD_SAMPLES));
  const seconds = (performance.now() - t) / 1000;
  const { sent, codes } = await flood.stop();
  const answered = Object.entries(codes)
    .map(([code, n]) => `${n.toLocaleString('en')} × ${code}`)
    .join(', ');
  return {
    rows: [
      `| \`GET ${FLOOD_PAGE}\` (100 statuses), idle | ${fmt(idle.p50)} | ${fmt(idle.p99)} | ${fmt(idle.max)} |`,
      `| the same page under a flood of strangers (200 connections sending a wrong key) | ${fmt(busy.p50)} | ${fmt(busy.p99)} | ${fmt(busy.max)} |`,
    ].join('\n'),
    note:
      `The flood row: a worker thread in the bench's process keeps 200 loopback connections sending a wrong API key ` +
      `while ${FLOOD_SAMPLES} pages are read one at a time (${seconds.toFixed(1)} s); it sent ${sent.toLocaleString('en')} ` +
      `requests (${answered}): 401 up to the address's failed-authentication budget, then 429.`,
  };
}

/** The flood row alone, over a small service (1,000 checks, no stored results). */
async function strangersOnly(): Promise<string> {
  const bench = await benchService(config());
  try {
    const flood = await underFlood(bench.service.url);
    return `| request | p50 | p99 | max |\n|---|---|---|---|\n${flood.rows}\n\n${flood.note}`;
  } finally {
    await bench.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
