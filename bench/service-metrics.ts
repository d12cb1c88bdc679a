// bench:service's scrape row (issue 35): GET /metrics of 10,000 checks over real HTTP,
// served from the kept snapshot and built anew (the service's clock moved past its 15 s),
// with the service's CPU time per scrape. `npm run bench:service -- metrics` runs it alone.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import type { CheckResult } from '../src/api/schemas.js';
import { ServiceConfigSchema } from '../src/server/config/schema.js';
import { SNAPSHOT_MS } from '../src/server/metrics/snapshot.js';
import { createService } from '../src/server/service.js';
import { sampleResult } from '../test/helpers/samples.js';
import { fmt, quantiles } from './report.js';

const CHECKS = 10_000;
const RESULTS_PER_CHECK = 6;
const ACCOUNT = '0b6f3c52-7c1e-4d8a-9f2b-3c4d5e6f7a8b';
const KEY = 'cw_bench_metrics_0123456789';
const LOCATIONS = [
  { id: 'eu-west', name: 'Frankfurt', region: 'eu-central-1' },
  { id: 'us-east', name: 'Virginia', region: 'us-east-1' },
  { id: 'ap-south', name: 'Singapore', region: 'ap-southeast-1' },
];
const SAMPLES = 20;

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

/** One scrape: its wall time and the process's CPU time (the service's, and undici's reading it). */
async function scrape(url: string): Promise<{ ms: number; cpuMs: number; bytes: number }> {
  const cpu = process.cpuUsage();
  const t = performance.now();
  const res = await request(`${url}/metrics`, {
    headers: { authorization: `Bearer ${KEY}`, 'accept-encoding': 'gzip' },
  });
  const body = await res.body.arrayBuffer();
  if (res.statusCode !== 200) throw new Error(`/metrics answered ${res.statusCode}`);
  const ms = performance.now() - t;
  const used = process.cpuUsage(cpu);
  return { ms, cpuMs: (used.user + used.system) / 1000, bytes: body.byteLength };
}

export async function scrapeReport(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'checkwall-bench-metrics-'));
  let shift = 0;
  const service = await createService({
    config: config(),
    dbPath: join(dir, 'bench.db'),
    startScheduler: false,
    rateLimit: { perSecond: 1e6, burst: 1e6 },
    now: () => Date.now() + shift,
  });
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
    const first = await scrape(service.url);
    const kept = [];
    for (let i = 0; i < SAMPLES; i++) kept.push(await scrape(service.url));
    const built = [];
    for (let i = 0; i < SAMPLES; i++) {
      shift += SNAPSHOT_MS; // the service's clock moves past the snapshot's life: this scrape builds it
      built.push(await scrape(service.url));
    }
    const row = (what: string, samples: Array<{ ms: number; cpuMs: number }>) => {
      const wall = quantiles(samples.map((s) => s.ms));
      const cpu = quantiles(samples.map((s) => s.cpuMs));
      return `| ${what} | ${fmt(wall.p50)} | ${fmt(wall.max)} | ${fmt(cpu.p50)} | ${fmt(cpu.max)} |`;
    };
    return `GET /metrics of ${CHECKS.toLocaleString('en')} checks (one account, ${(first.bytes / 1e6).toFixed(1)} MB gzipped, as Prometheus asks for it), with a read key, over real HTTP on 127.0.0.1, one at a time; CPU is the process's (service and client) during the request.

| scrape | wall p50 | wall max | CPU p50 | CPU max |
|---|---|---|---|---|
${row('served from the kept snapshot (< 15 s old)', kept)}
${row('building the snapshot (the clock moved 15 s)', built)}

The first scrape after the statuses were warm: ${fmt(first.ms)} (${fmt(first.cpuMs)} CPU).`;
  } finally {
    await service.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
