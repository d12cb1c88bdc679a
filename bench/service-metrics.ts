// bench:service's scrape row (docs/metrics.md): GET /metrics of 10,000 checks over real HTTP,
// at a 15 s interval (the snapshot built ahead of each) and with no snapshot to serve
// (built in the request), with the main thread's busy time per scrape and between.
// `npm run bench:service -- metrics` runs it alone.
import { randomUUID } from 'node:crypto';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { request } from 'undici';
import type { CheckResult } from '../src/api/schemas/index.js';
import { ServiceConfigSchema } from '../src/server/config/schema.js';
import { REFRESH_MS, SNAPSHOT_MS, TICK_MS, WATCH_MS } from '../src/server/metrics/snapshot.js';
import { sampleResult } from '../test/helpers/samples.js';
import { fmt, quantiles } from './report.js';
import { BENCH_ACCOUNT as ACCOUNT, BENCH_LOCATIONS as LOCATIONS, benchService } from './fixtures.js';

const CHECKS = 10_000;
const RESULTS_PER_CHECK = 6;
const KEY = 'cw_bench_metrics_0123456789';
const SAMPLES = 20;
const COLD_SAMPLES = 5;

const config = () =>
  ServiceConfigSchema.parse({
    accounts: [
      {
        id: ACCOUNT,
        apiKeys: [{ key: KEY, name: 'prometheus', role: 'read' }],
        locations: LOCATIONS,
        groups: [{ id: 'core', name: 'Core' }],
        checks: Array.from({ length: CHECKS }, (_, i) => ({
          id: `c${i}`,
          name: `Check ${i}`,
          type: 'api',
          target: 'http://127.0.0.1:9/',
          locations: LOCATIONS.map((l) => l.id),
          group: 'core',
        })),
      },
    ],
  });

/**
 * One scrape: its wall time and the main thread's busy time meanwhile (the service's
 * handling and undici's reading; the metrics thread's work is not in it).
 */
async function scrape(url: string): Promise<{ ms: number; busyMs: number; bytes: number }> {
  const elu = performance.eventLoopUtilization();
  const t = performance.now();
  const res = await request(`${url}/metrics`, {
    headers: { authorization: `Bearer ${KEY}`, 'accept-encoding': 'gzip' },
  });
  const body = await res.body.arrayBuffer();
  if (res.statusCode !== 200) throw new Error(`/metrics answered ${res.statusCode}`);
  const ms = performance.now() - t;
  return { ms, busyMs: performance.eventLoopUtilization(elu).active, bytes: body.byteLength };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function scrapeReport(): Promise<string> {
  // The service's clock moves only when the bench moves it: scrapes exactly 15 s apart on it.
  const start = Date.now();
  let shift = 0;
  const bench = await benchService(config(), { now: () => start + shift });
  const { service } = bench;
  try {
    const now = Date.now();
    for (let c = 0; c < CHECKS; c++) {
      const batch: CheckResult[] = Array.from({ length: RESULTS_PER_CHECK }, (_, i) => {
        const startedAt = now - (i + 1) * 60_000;
        const failed = (i + c) % 23 === 0;
        return sampleResult(randomUUID(), {
          checkId: `c${c}`,
          checkName: `Check ${c}`,
          status: failed ? 'failed' : 'success',
          startedAt: new Date(startedAt).toISOString(),
          finishedAt: new Date(startedAt + 120).toISOString(),
          location: LOCATIONS[i % 3]!,
        });
      });
      await service.storage.insertResults(ACCOUNT, batch);
    }
    const pairs = service.accounts
      .all()
      .flatMap((account) => account.checks.map((check) => ({ account, check })));
    await service.engine.warm(pairs, 600_000);
    // The main thread over the same 2 s with no scrape (the service's own timers: statuses warmed).
    const quiet = [];
    const quietDelay = monitorEventLoopDelay({ resolution: 1 });
    for (let i = 0; i < 5; i++) {
      const elu = performance.eventLoopUtilization();
      quietDelay.enable();
      shift += SNAPSHOT_MS - REFRESH_MS;
      await pause(2 * TICK_MS);
      shift += REFRESH_MS;
      quietDelay.disable();
      quiet.push(performance.eventLoopUtilization(elu).active);
    }
    const first = await scrape(service.url);
    // Prometheus every 15 s: the service's clock moves 5 s after a scrape, the snapshot
    // is built ahead (looked at once a second), then 10 s more to the next scrape. The
    // main thread's busy time and its longest stall are taken over the time between.
    const ahead = [];
    const between = [];
    const delay = monitorEventLoopDelay({ resolution: 1 });
    // The first two scrapes tell the service the interval; the samples are the scrapes after.
    for (let i = -2; i < SAMPLES; i++) {
      const elu = performance.eventLoopUtilization();
      if (i >= 0) delay.enable();
      shift += SNAPSHOT_MS - REFRESH_MS;
      await pause(2 * TICK_MS);
      shift += REFRESH_MS;
      delay.disable();
      const busy = performance.eventLoopUtilization(elu).active;
      const sample = await scrape(service.url);
      if (i < 0) continue;
      between.push(busy);
      ahead.push(sample);
    }
    // A scrape with no snapshot young enough: no scrape in WATCH_MS, so none was built ahead.
    const cold = [];
    for (let i = 0; i < COLD_SAMPLES; i++) {
      shift += WATCH_MS + SNAPSHOT_MS;
      await pause(2 * TICK_MS);
      cold.push(await scrape(service.url));
    }
    const row = (what: string, samples: Array<{ ms: number; busyMs: number }>) => {
      const wall = quantiles(samples.map((s) => s.ms));
      const busy = quantiles(samples.map((s) => s.busyMs));
      return `| ${what} | ${fmt(wall.p50)} | ${fmt(wall.max)} | ${fmt(busy.p50)} | ${fmt(busy.max)} |`;
    };
    const busy = quantiles(between);
    return `GET /metrics of ${CHECKS.toLocaleString('en')} checks (one account, ${(first.bytes / 1e6).toFixed(1)} MB gzipped, as Prometheus asks for it), with a read key, over real HTTP on 127.0.0.1, one at a time. "Main thread" is its busy time during the request (the service's handling and undici's reading; the text is written on the metrics thread).

| scrape | wall p50 | wall max | main thread p50 | main thread max |
|---|---|---|---|---|
${row(`every 15 s, the snapshot built ahead (${SAMPLES} scrapes)`, ahead)}
${row(`no snapshot young enough: built in the request (${COLD_SAMPLES} scrapes)`, cold)}

Between two scrapes 15 s apart, while the snapshot is built ahead: the main thread busy ${fmt(busy.p50)} p50 (${fmt(busy.max)} max) in all, its longest stall ${fmt(delay.max / 1e6)} (event-loop delay p99 ${fmt(delay.percentile(99) / 1e6)}). The same 2 s with no scrape and nothing built (the service's own timers): busy ${fmt(quantiles(quiet).p50)} p50, longest stall ${fmt(quietDelay.max / 1e6)}. The first scrape after the statuses were warm: ${fmt(first.ms)} (main thread ${fmt(first.busyMs)}).`;
  } finally {
    await bench.close();
  }
}
