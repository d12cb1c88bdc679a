// bench:service, measurement honesty: does the service measure the target or
// itself? A loopback target (a process of its own) answers /slow after 50 ms
// before its headers and /fast at once. The service runs N api checks at 60 s
// on /fast (its full load) and probe checks at 5 s on /slow. The target keeps
// how long each /slow answer really waited (its timer fires late when it waits
// for a core); the error of a probe's firstByte is what the service stored
// minus that, and the target's own lateness is reported apart. Statuses are requested
// meanwhile, one at a time. Runs due vs stored come from the scheduler's
// accounting. Each load is bounded: about a minute.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { CheckResultListSchema } from '../src/api/schemas/index.js';
import { ServiceConfigSchema } from '../src/server/config/schema.js';
import { createService, type Service } from '../src/server/service/index.js';
import { sampleResult } from '../test/helpers/samples.js';
import { startBystander, type Bystander } from './bystander.js';
import { startStatusesClient, type StatusesClient } from './statuses-client.js';
import { fmt, progress, quantiles } from './report.js';
import { listening, raise, stopAll } from './scale-procs.js';

const ACCOUNT = '0b6f3c52-7c1e-4d8a-9f2b-3c4d5e6f7a8b';
const KEY = 'cw_bench_0123456789abcdef';
const LOCATION = { id: 'eu-west', name: 'Frankfurt', region: 'eu-central-1' };
const DELAY_MS = 50;
const PROBES = 50;
const auth = { authorization: `Bearer ${KEY}`, 'x-service-account': ACCOUNT };

// Each /slow answer's wait is timed from the request's arrival to just before
// its headers are written; GET /waits hands them over.
const TARGET = `
const http = require('node:http');
const waits = [];
const server = http.createServer((req, res) => {
  if (req.url.startsWith('/slow')) {
    const at = Date.now();
    const t0 = performance.now();
    setTimeout(() => {
      waits.push({ path: req.url, at, ms: performance.now() - t0 });
      res.end('ok');
    }, ${DELAY_MS});
  } else if (req.url === '/waits') res.end(JSON.stringify(waits));
  else res.end('ok');
});
server.listen(0, '127.0.0.1', () => process.stdout.write('listening on http://127.0.0.1:' + server.address().port + '\\n'));
`;

interface TargetWait {
  path: string;
  /** When the request arrived (epoch ms). */
  at: number;
  /** How long the answer really waited before its headers. */
  ms: number;
}

type Figure = { p50: number; p99: number; max: number };

export interface HonestyRow {
  checks: number;
  seconds: number;
  /** The stored firstByte minus the target's real wait for that request. */
  firstByteError: Figure & { samples: number };
  /** The stored firstByte minus the nominal 50 ms (the target's lateness included). */
  rawError: Figure;
  /** How late the target's own timer was (its real wait minus 50 ms). */
  targetLate: Figure;
  /** How late an idle bystander process's 50 ms timer was, over the same window. */
  idleLate: Figure;
  /** The nice value the statuses client ran at; undefined: not raised. */
  clientNice: number | undefined;
  /** The nice value the probes' target ran at; undefined: not raised. */
  targetNice: number | undefined;
  statuses: { p50: number; p99: number; max: number; samples: number };
  due: number;
  stored: number;
  skipped: number;
  cpuPercent: number;
  loadAvg: number;
  /** After the window, how long the main thread took to store the results still waiting. */
  drainedMs: number;
}

/** Where the load's checks go and where the probes' go (two target processes), the bystander, and the statuses client. */
interface Targets {
  load: string;
  probes: string;
  probesNice: number | undefined;
  bystander: Bystander;
  client: StatusesClient;
}

function config(targets: Targets, checks: number) {
  const check = (id: string, url: string, frequency: string) => ({
    id,
    name: id,
    type: 'api',
    target: url,
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
          ...Array.from({ length: checks }, (_, i) => check(`c${i}`, `${targets.load}/fast/${i}`, '60s')),
          ...Array.from({ length: PROBES }, (_, i) =>
            check(`probe${i}`, `${targets.probes}/slow/${i}`, '5s'),
          ),
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

/** The target's wait for the request of `path` that arrived nearest `at` (runs of a probe are 5 s apart). */
function waitOf(waits: TargetWait[], path: string, at: number): TargetWait | undefined {
  let best: TargetWait | undefined;
  for (const w of waits)
    if (
      w.path === path &&
      Math.abs(w.at - at) < 1_000 &&
      (!best || Math.abs(w.at - at) < Math.abs(best.at - at))
    )
      best = w;
  return best;
}

interface ProbeErrors {
  errors: number[];
  raw: number[];
  late: number[];
  /** Results with no matching request at the target (not counted in the error). */
  unmatched: number;
}

async function probeErrors(service: Service, base: string, from: number, to: number): Promise<ProbeErrors> {
  const waits = (await (await request(`${base}/waits`)).body.json()) as TargetWait[];
  const out: ProbeErrors = { errors: [], raw: [], late: [], unmatched: 0 };
  for (let i = 0; i < PROBES; i++) {
    const res = await request(`${service.url}/v1/check-results/probe${i}?period=1h&limit=100`, {
      headers: auth,
    });
    for (const r of CheckResultListSchema.parse(await res.body.json()).data) {
      const at = Date.parse(r.startedAt);
      const firstByte = r.timing.firstByte;
      if (at < from || at > to || firstByte === undefined) continue;
      const wait = waitOf(waits, `/slow/${i}`, at);
      if (!wait) {
        out.unmatched++;
        continue;
      }
      out.errors.push(firstByte - wait.ms);
      out.raw.push(firstByte - DELAY_MS);
      out.late.push(wait.ms - DELAY_MS);
    }
  }
  return out;
}

async function measure(targets: Targets, checks: number, seconds: number): Promise<HonestyRow> {
  const dir = mkdtempSync(join(tmpdir(), 'checkwall-honesty-'));
  const cfg = config(targets, checks);
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
  const statuses = await targets.client.measure(running.url, auth, from + seconds * 1000, 50);
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
  const probes = await probeErrors(running, targets.probes, from, to - 1_000);
  const idle = await targets.bystander.lateBetween(from, to);
  if (probes.unmatched > 0)
    progress(`${checks} checks: ${probes.unmatched} probe results had no request at the target`);
  progress(`${checks} checks: done`);
  await running.close();
  rmSync(dir, { recursive: true, force: true });
  const e = quantiles(probes.errors);
  const s = quantiles(statuses);
  const figure = ({ p50, p99, max }: Figure): Figure => ({ p50, p99, max });
  return {
    checks,
    seconds,
    firstByteError: { ...figure(e), samples: probes.errors.length },
    rawError: figure(quantiles(probes.raw)),
    targetLate: figure(quantiles(probes.late)),
    idleLate: figure(quantiles(idle)),
    targetNice: targets.probesNice,
    clientNice: targets.client.nice,
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
  try {
    // The probes' target serves nothing else, as a real target is not also answering the
    // service's whole load: its timer is then late only when it waits for a core. It is the
    // bench's instrument, on another machine in real life: raised above the service, it waits
    // less for a core, and its real waits are taken out of the error anyway.
    const [load, probes] = await Promise.all([
      listening('load target', ['-e', TARGET], 10_000),
      listening('probes target', ['-e', TARGET], 10_000),
    ]);
    const pid = probes.proc.child.pid;
    const probesNice = pid === undefined ? undefined : raise(pid);
    const bystander = await startBystander();
    const client = await startStatusesClient();
    const rows: HonestyRow[] = [];
    for (const checks of loads) {
      const targets = { load: load.url, probes: probes.url, probesNice, bystander, client };
      rows.push(await measure(targets, checks, seconds));
      report(rows);
    }
    return rows;
  } finally {
    await stopAll();
  }
}

export function honestyReport(rows: HonestyRow[]): string {
  const line = (r: HonestyRow) =>
    `| ${r.checks.toLocaleString('en')} at 60 s + ${PROBES} probes at 5 s | ${fmt(r.firstByteError.p50)} | ${fmt(r.firstByteError.p99)} (${r.firstByteError.samples} runs) | ${fmt(r.rawError.p99)} | ${fmt(r.targetLate.p99)} | ${fmt(r.idleLate.p99)} | ${fmt(r.statuses.p50)} | ${fmt(r.statuses.p99)} (${r.statuses.samples}) | ${r.due.toLocaleString('en')} / ${r.stored.toLocaleString('en')} / ${r.skipped.toLocaleString('en')} | ${r.cpuPercent.toFixed(0)} % | ${(r.drainedMs / 1000).toFixed(1)} s | ${r.loadAvg.toFixed(1)} |`;
  return `Measurement honesty: a loopback target (a process of its own) answers after ${DELAY_MS} ms
before its headers; the service runs N api checks at 60 s on the instant path of another such process
(its full load, one location, a SQLite file) and ${PROBES} probe checks at 5 s on the delayed path. The target times
each delayed answer's real wait, from the request's arrival to just before its headers are written: its
timer fires late when it waits for a core too. The error is the probe's stored \`firstByte\` (whole
milliseconds) minus that real wait: what the service added. "Stored − ${DELAY_MS} ms" is the same without
taking the target's lateness out, and "target late" is that lateness alone (its real wait minus ${DELAY_MS} ms).
A request whose arrival waited in the target's own event loop still counts against the service. The
probes' target is a process of its own that serves nothing else, ${rows[0]?.targetNice === undefined ? 'at the same priority as the service (this run could not raise it)' : `at nice ${rows[0].targetNice}, above the service`}:
it stands for a target on another machine. Both targets keep Node's default keep-alive (5 s). "Idle late"
is a bystander (\`bench/bystander.ts\`): a third process, at the service's priority, that serves nothing and
only sets a 50 ms timer again and again; how late it fires is how long a thread woken on this machine
waited for a core in the same window. A probe's run is woken twice on its way (the target reading the request, the run
worker reading the answer), so its error cannot be much below that.
\`GET /v1/check-statuses\` pages of 100 are requested one
at a time meanwhile (every 100 ms), by a process of its own (\`bench/statuses-client.ts\`) ${rows[0]?.clientNice === undefined ? "at the service's priority (this run could not raise it)" : `at nice ${rows[0].clientNice}`}: a console on
another machine shares neither the service's event loop nor its wait for a core. Until 2026-11-26 the bench's
own process asked, on the service's event loop. Each load runs ${rows[0]?.seconds ?? 0} s after a 5 s warm-up, on a schedule
already steady (one run per check seeded, as after a restart). Runs due / stored / skipped come from the
scheduler's accounting over the same window (a run due near its end may still be in flight, one due just
before it may be stored in it). CPU is the
service process (all threads) as a share of one core. "Backlog after": once the window closed and the load
was taken off (a reload to the probes alone), how long until every run in flight had been stored: the main
thread (storage and the status engine) falling behind shows here, and as runs due but not stored.

| load | firstByte error p50 | p99 | stored − ${DELAY_MS} ms, p99 | target late, p99 | idle late, p99 | statuses p50 | p99 | runs due / stored / skipped | CPU | backlog after | load avg at start |
|---|---|---|---|---|---|---|---|---|---|---|---|
${rows.map(line).join('\n')}

Aim: firstByte error p99 < 5 ms and statuses p99 < 10 ms at 10,000 checks.

On 2 cores, a load average at start above about 2 means the worker threads and the main thread
waited for a core, and the figures include that wait.`;
}
