// bench:service, measurement honesty: does the service measure the target or
// itself? A loopback target (a process of its own) answers /slow after a known
// 50 ms before its headers and /fast at once. The service runs N api checks at
// 60 s on /fast (its full load) and probe checks at 5 s on /slow; the error of
// a probe's firstByte is what it stored minus 50 ms. Statuses are requested
// meanwhile, one at a time. Runs due vs stored come from the scheduler's
// accounting. Each load is bounded: about a minute.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { CheckResultListSchema } from '../src/api/schemas.js';
import { ServiceConfigSchema } from '../src/server/config-schema.js';
import { createService, type Service } from '../src/server/service.js';
import { sampleResult } from '../test/helpers/samples.js';
import { fmt, quantiles } from './report.js';

const ACCOUNT = '0b6f3c52-7c1e-4d8a-9f2b-3c4d5e6f7a8b';
const KEY = 'cw_bench_0123456789abcdef';
const LOCATION = { id: 'eu-west', name: 'Frankfurt', region: 'eu-central-1' };
const DELAY_MS = 50;
const PROBES = 50;
const auth = { authorization: `Bearer ${KEY}`, 'x-service-account': ACCOUNT };

const TARGET = `
const http = require('node:http');
const server = http.createServer((req, res) => {
  if (req.url.startsWith('/slow')) setTimeout(() => res.end('ok'), ${DELAY_MS});
  else res.end('ok');
});
server.keepAliveTimeout = 1000;
server.listen(0, '127.0.0.1', () => process.stdout.write(String(server.address().port)));
`;

const progress = (line: string) =>
  process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);

export interface HonestyRow {
  checks: number;
  seconds: number;
  firstByteError: { p50: number; p99: number; max: number; samples: number };
  statuses: { p50: number; p99: number; max: number; samples: number };
  due: number;
  stored: number;
  skipped: number;
  cpuPercent: number;
  loadAvg: number;
  /** After the window, how long the main thread took to store the results still waiting. */
  drainedMs: number;
}

function config(base: string, checks: number) {
  const check = (id: string, path: string, frequency: string) => ({
    id,
    name: id,
    type: 'api',
    target: `${base}${path}`,
    frequency,
    locations: [LOCATION.id],
  });
  return ServiceConfigSchema.parse({
    maxConcurrentRuns: 64,
    accounts: [
      {
        id: ACCOUNT,
        apiKeys: [KEY],
        locations: [LOCATION],
        checks: [
          ...Array.from({ length: checks }, (_, i) => check(`c${i}`, `/fast/${i}`, '60s')),
          ...Array.from({ length: PROBES }, (_, i) => check(`probe${i}`, `/slow/${i}`, '5s')),
        ],
      },
    ],
  });
}

/** One stored run per check just now: the service starts on its steady schedule, not catching up. */
async function seedOneRunEach(service: Service, checks: string[]) {
  const at = Date.now() - 1_000;
  await service.storage.insertResults(
    ACCOUNT,
    checks.map((checkId) =>
      sampleResult(randomUUID(), {
        checkId,
        checkName: checkId,
        location: LOCATION,
        startedAt: new Date(at).toISOString(),
        finishedAt: new Date(at + 1).toISOString(),
      }),
    ),
  );
}

async function statusesFor(service: Service, untilMs: number): Promise<number[]> {
  const out: number[] = [];
  for (let page = 1; performance.now() < untilMs; page = (page % 50) + 1) {
    const t = performance.now();
    // Bounded: a request still unanswered at the end counts with the time it waited.
    const signal = AbortSignal.timeout(Math.max(1, Math.ceil(untilMs - t)));
    try {
      const res = await request(`${service.url}/v1/check-statuses?limit=100&page=${page}`, {
        headers: auth,
        signal,
      });
      await res.body.text();
    } catch {
      out.push(performance.now() - t);
      break;
    }
    out.push(performance.now() - t);
    await new Promise((r) => setTimeout(r, 100));
  }
  return out;
}

async function probeErrors(service: Service, from: number, to: number): Promise<number[]> {
  const errors: number[] = [];
  for (let i = 0; i < PROBES; i++) {
    const res = await request(`${service.url}/v1/check-results/probe${i}?period=1h&limit=100`, {
      headers: auth,
    });
    for (const r of CheckResultListSchema.parse(await res.body.json()).data) {
      const at = Date.parse(r.startedAt);
      if (at >= from && at <= to && r.timing.firstByte !== undefined)
        errors.push(r.timing.firstByte - DELAY_MS);
    }
  }
  return errors;
}

async function measure(base: string, checks: number, seconds: number): Promise<HonestyRow> {
  const dir = mkdtempSync(join(tmpdir(), 'checkwall-honesty-'));
  const cfg = config(base, checks);
  const service = await createService({
    config: cfg,
    dbPath: join(dir, 'bench.db'),
    startScheduler: false,
    rateLimit: { perSecond: 1e6, burst: 1e6 },
  });
  progress(`${checks} checks: seeding one run each`);
  await seedOneRunEach(
    service,
    cfg.accounts[0]!.checks.map((c) => c.id),
  );
  await service.close();
  // Reopened on the seeded file, as a restart would: every slot on its offset from the start.
  const running = await createService({
    config: cfg,
    dbPath: join(dir, 'bench.db'),
    rateLimit: { perSecond: 1e6, burst: 1e6 },
  });
  // Every status computed once, as the warmer would have after a while: the figures are the steady state.
  progress(`${checks} checks: service up, computing every status`);
  await running.engine.warm(
    running.accounts.all().flatMap((account) => account.checks.map((check) => ({ account, check }))),
    600_000,
  );
  await new Promise((r) => setTimeout(r, 5_000)); // workers up, results of the pause stored
  progress(`${checks} checks: measuring for ${seconds} s`);
  const before = running.runStats();
  const cpu = process.cpuUsage();
  const loadAvg = loadavg()[0]!;
  const from = Date.now();
  const t0 = performance.now();
  const statuses = await statusesFor(running, t0 + seconds * 1000);
  const used = process.cpuUsage(cpu);
  progress(`${checks} checks: window over, collecting the probes' results`);
  const to = Date.now();
  const after = running.runStats();
  // Off with the load (a reload to the probes alone: runs in flight finish), so the results
  // still waiting for the main thread are stored and the probes' can be read.
  await running.reload({
    ...cfg,
    accounts: cfg.accounts.map((a) => ({ ...a, checks: a.checks.filter((c) => c.id.startsWith('probe')) })),
  });
  let backlog = Infinity;
  while (backlog > 0) {
    await new Promise((r) => setTimeout(r, 1_000));
    const now = running.runStats();
    backlog = now.queued + now.running;
  }
  const drained = Date.now() - to;
  const errors = await probeErrors(running, from, to - 1_000);
  progress(`${checks} checks: done`);
  await running.close();
  rmSync(dir, { recursive: true, force: true });
  const e = quantiles(errors);
  const s = quantiles(statuses);
  return {
    checks,
    seconds,
    firstByteError: { p50: e.p50, p99: e.p99, max: e.max, samples: errors.length },
    statuses: { p50: s.p50, p99: s.p99, max: s.max, samples: statuses.length },
    due: after.due - before.due,
    stored: after.stored - before.stored,
    skipped: after.skipped - before.skipped,
    cpuPercent: ((used.user + used.system) / 1000 / (to - from)) * 100,
    drainedMs: drained,
    loadAvg,
  };
}

/** Measures each load in turn; `report` gets the rows so far after each (a long run keeps what it measured). */
export async function measureHonesty(
  loads: number[],
  seconds: number,
  report: (rows: HonestyRow[]) => void,
): Promise<HonestyRow[]> {
  const child = spawn(process.execPath, ['-e', TARGET], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const port = await new Promise<string>((resolve) =>
      child.stdout.once('data', (d: Buffer) => resolve(String(d))),
    );
    const rows: HonestyRow[] = [];
    for (const checks of loads) {
      rows.push(await measure(`http://127.0.0.1:${port}`, checks, seconds));
      report(rows);
    }
    return rows;
  } finally {
    child.kill();
  }
}

export function honestyReport(rows: HonestyRow[]): string {
  const line = (r: HonestyRow) =>
    `| ${r.checks.toLocaleString('en')} at 60 s + ${PROBES} probes at 5 s | ${fmt(r.firstByteError.p50)} | ${fmt(r.firstByteError.p99)} (${r.firstByteError.samples} runs) | ${fmt(r.statuses.p50)} | ${fmt(r.statuses.p99)} (${r.statuses.samples}) | ${r.due.toLocaleString('en')} / ${r.stored.toLocaleString('en')} / ${r.skipped.toLocaleString('en')} | ${r.cpuPercent.toFixed(0)} % | ${(r.drainedMs / 1000).toFixed(1)} s | ${r.loadAvg.toFixed(1)} |`;
  return `Measurement honesty: a loopback target (a process of its own) answers after a known ${DELAY_MS} ms
before its headers; the service runs N api checks at 60 s on the same target's instant path (its full
load, one location, a SQLite file) and ${PROBES} probe checks at 5 s on the delayed path; the error is the
probe's stored \`firstByte\` minus ${DELAY_MS} ms. \`GET /v1/check-statuses\` pages of 100 are requested one
at a time meanwhile (every 100 ms). Each load runs ${rows[0]?.seconds ?? 0} s after a 5 s warm-up, on a schedule
already steady (one run per check seeded, as after a restart). Runs due / stored / skipped come from the
scheduler's accounting over the same window (a run due near its end may still be in flight, one due just
before it may be stored in it). CPU is the
service process (all threads) as a share of one core. "Backlog after": once the window closed and the load
was taken off (a reload to the probes alone), how long until every run in flight had been stored: the main
thread (storage and the status engine) falling behind shows here, and as runs due but not stored.

| load | firstByte error p50 | p99 | statuses p50 | p99 | runs due / stored / skipped | CPU | backlog after | load avg at start |
|---|---|---|---|---|---|---|---|---|
${rows.map(line).join('\n')}

Aim: firstByte error p99 < 5 ms and statuses p99 < 10 ms at 10,000 checks.

On 2 cores, a load average at start above about 2 means the worker threads and the main thread
waited for a core, and the figures include that wait.`;
}
