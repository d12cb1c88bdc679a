// bench:scale (docs/scale.md): N api checks at 60 s over 5 remote locations, on
// PostgreSQL with two `checkwall serve` instances and 15 `checkwall runner`
// processes (3 per location, alternately pointed at each instance), all on this
// machine with a loopback target answering at once. Over a window of M minutes:
// runs due (from the schedule) vs stored (in PostgreSQL), schedule lag, the
// statuses page's latency on each instance under that load, and the CPU of each
// process. `--minutes N` (default 5) and `--checks N` (default 10,000) for quick
// runs; `--every-location` runs each check from all 5 locations instead of one;
// `--skip-statuses` leaves the statuses page alone (the run pipeline's figures alone);
// `--failing-location` runs each check from two locations and breaks loc1 as the window starts
// (scale-outage.ts): the pages a channel receives are counted.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { ServiceConfigSchema, type ServiceConfig } from '../src/server/config/schema.js';
import { startCluster } from '../test/helpers/pg-cluster.js';
import { startBystander } from './bystander.js';
import { seedSteady } from './seed.js';
import { progress, writeSection } from './report.js';
import { countRuns, dbActivity, topStatements, waitDrained } from './scale-count.js';
import { scaleReport, type ScaleRow } from './scale-report.js';
import * as procs from './scale-procs.js';
import {
  FAILING,
  outageConfig,
  outageLedger,
  outageLocations,
  pagesLine,
  startPageCounter,
} from './scale-outage.js';

const ACCOUNT = '5ca1e000-7c1e-4d8a-9f2b-3c4d5e6f7a8b';
const KEY = 'cw_bench_scale_0123456789abcdef';
const LOCATIONS = 5;
const RUNNERS_PER_LOCATION = 3;
const RUNNER_CONCURRENCY = 8;
const WARM_UP_MS = 20_000;
const DRAIN_MS = 60_000;
const auth = { authorization: `Bearer ${KEY}`, 'x-service-account': ACCOUNT };
const token = (i: number) => `runner-token-loc${i}-${'0123456789abcdef'}`;

function options() {
  const { values } = parseArgs({
    options: {
      minutes: { type: 'string', default: '5' },
      checks: { type: 'string', default: '10000' },
      'every-location': { type: 'boolean', default: false },
      'skip-statuses': { type: 'boolean', default: false },
      'failing-location': { type: 'boolean', default: false },
    },
  });
  const minutes = Number(values.minutes);
  const checks = Number(values.checks);
  if (!(minutes > 0 && minutes <= 60)) throw new Error(`--minutes must be more than 0, at most 60`);
  if (!Number.isInteger(checks) || checks < 1 || checks > 200_000)
    throw new Error(`--checks must be a whole number 1-200000`);
  const failingLocation = values['failing-location'];
  if (failingLocation && values['every-location'])
    throw new Error('--failing-location and --every-location: one of them');
  return {
    minutes,
    checks,
    everyLocation: values['every-location'],
    skipStatuses: values['skip-statuses'],
    failingLocation,
  };
}

function config(target: string, checks: number, everyLocation: boolean, receiver?: string): ServiceConfig {
  const locations = Array.from({ length: LOCATIONS }, (_, i) => ({
    id: `loc${i + 1}`,
    name: `Location ${i + 1}`,
    region: `region-${i + 1}`,
    remote: true,
    runnerToken: token(i + 1),
  }));
  return ServiceConfigSchema.parse({
    accounts: [
      {
        id: ACCOUNT,
        apiKeys: [KEY],
        locations,
        checks: Array.from({ length: checks }, (_, i) => ({
          id: `c${i}`,
          name: `c${i}`,
          type: 'api',
          // In --failing-location, ten loopback hosts (scale-procs.ts' target answers on each).
          target: receiver
            ? `${target.replace('127.0.0.1', `127.0.0.${1 + (Math.floor(i / 5) % 10)}`)}/c${i}`
            : `${target}/c${i}`,
          frequency: '60s',
          locations: receiver
            ? outageLocations(i, LOCATIONS)
            : everyLocation
              ? locations.map((l) => l.id)
              : [locations[i % LOCATIONS]!.id],
          ...(receiver ? { group: 'all' } : {}),
        })),
        ...(receiver ? outageConfig(receiver) : {}),
      },
    ],
    ...(receiver ? { alertDelivery: { allowPrivateNetworks: true } } : {}),
  });
}

/** GET /v1/check-statuses pages of 100, one at a time, until `untilMs`; an error answer is counted and noted. */
async function statuses(url: string, pages: number, untilMs: number) {
  const latencies: number[] = [];
  const errors: string[] = [];
  for (let page = 1; performance.now() < untilMs; page = (page % pages) + 1) {
    const t = performance.now();
    const res = await request(`${url}/v1/check-statuses?limit=100&page=${page}`, { headers: auth });
    const body = await res.body.text();
    latencies.push(performance.now() - t);
    if (res.statusCode !== 200) errors.push(`HTTP ${res.statusCode}: ${body.slice(0, 200)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { latencies, errors };
}

/** How long the first statuses page took, asked once every instance is up (a 200, or the bench stops). */
async function firstPage(url: string): Promise<number> {
  const t = performance.now();
  const res = await request(`${url}/v1/check-statuses?limit=100&page=1`, {
    headers: auth,
    headersTimeout: 600_000,
    bodyTimeout: 600_000,
  });
  const body = await res.body.text();
  if (res.statusCode !== 200)
    throw new Error(`first statuses page: HTTP ${res.statusCode}: ${body.slice(0, 200)}`);
  return performance.now() - t;
}

const errorLines = (text: string) => text.split('\n').filter((l) => l.trim() !== '').length;

async function measure(opts: ReturnType<typeof options>): Promise<ScaleRow> {
  const { minutes, checks, everyLocation } = opts;
  const dir = mkdtempSync(join(tmpdir(), 'checkwall-scale-'));
  const cluster = await startCluster();
  const pager = opts.failingLocation ? await startPageCounter() : undefined;
  try {
    const db = await cluster.freshDatabase();
    const target = await procs.startTarget();
    // At the priority the instances have (started before this process raises its own).
    const bystander = await startBystander();
    const cfg = config(target.url, checks, everyLocation, pager?.url);
    const file = join(dir, 'config.json');
    // It holds API keys: readable by its owner only, as the service asks of a config file.
    writeFileSync(file, JSON.stringify(cfg), { mode: 0o600 });
    progress(`${checks} checks: seeding one run per check × location`);
    await seedSteady(db, ACCOUNT, cfg);
    // Runners start with the instances, as long-lived runners are there when an instance
    // (re)starts: they retry until it listens. Started after it, they left its first
    // seconds of runs waiting, a backlog the window then inherited.
    progress(`starting two instances and ${LOCATIONS * RUNNERS_PER_LOCATION} runners`);
    const ports = [await procs.freePort(), await procs.freePort()];
    const urls = ports.map((port) => `http://127.0.0.1:${port}`);
    const [serves, runners] = await Promise.all([
      Promise.all(ports.map((port, i) => procs.startServe(`serve-${i + 1}`, db, file, port))),
      Promise.all(
        Array.from({ length: LOCATIONS * RUNNERS_PER_LOCATION }, (_, i) => {
          const loc = Math.floor(i / RUNNERS_PER_LOCATION) + 1;
          return procs.startRunner(
            `runner-${i + 1}`,
            urls[i % 2]!,
            `loc${loc}`,
            token(loc),
            RUNNER_CONCURRENCY,
          );
        }),
      ),
    ]);
    // The first list an instance answers waits for every status it has not read yet: its cold start.
    progress('the first statuses page of each instance');
    const coldListMs = await Promise.all(serves.map((s) => firstPage(s.url)));
    progress(`warming up ${WARM_UP_MS / 1000} s`);
    await new Promise((r) => setTimeout(r, WARM_UP_MS));
    const cpu = () => ({
      serves: serves.map((s) => procs.cpuSeconds(s.proc.child.pid)),
      runners: runners.reduce((sum, r) => sum + procs.cpuSeconds(r.child.pid), 0),
      target: procs.cpuSeconds(target.proc.child.pid),
      pg: procs.pgPids(cluster.dataDir).reduce((sum, pid) => sum + procs.cpuSeconds(pid), 0),
      machine: procs.machineTicks(),
    });
    // The statuses requests are the bench's measurement, not part of the system measured: a
    // console asks from another machine. Raised above the processes it measures (which started
    // before and keep their priority), this process's waits for a core stay out of the pages'
    // latency.
    const clientNice = procs.raise();
    const before = cpu();
    const dbBefore = await dbActivity(db);
    const t0 = performance.now();
    const loadBefore = loadavg()[0]!;
    const from = Date.now();
    const to = from + minutes * 60_000;
    if (pager) {
      progress(`${FAILING} breaks: the target answers 503 to its runs`);
      await (await request(`${target.url}/fail/${FAILING}`)).body.text();
    }
    progress(`measuring for ${minutes} min`);
    const pages = Math.ceil(checks / 100);
    const end = performance.now() + (to - from);
    const latencies = opts.skipStatuses
      ? await new Promise<Array<{ latencies: number[]; errors: string[] }>>((r) =>
          setTimeout(() => r([]), to - from),
        )
      : await Promise.all(serves.map((s) => statuses(s.url, pages, end)));
    const after = cpu();
    const dbAfter = await dbActivity(db);
    // The last statuses request may end after the window: CPU over the time actually sampled.
    const sampled = (performance.now() - t0) / 1000;
    const loadAfter = loadavg()[0]!;
    progress('window over: waiting for the runs due in it to be stored');
    const drainedMs = await waitDrained(db, to, DRAIN_MS);
    const count = await countRuns(db, cfg, from, to);
    if (process.env.CHECKWALL_BENCH_LOGS) await topStatements(db, process.env.CHECKWALL_BENCH_LOGS);
    const idleLate = await bystander.lateBetween(from, to);
    const share = (a: number, b: number) => ((a - b) / sampled) * 100;
    return {
      checks,
      everyLocation,
      minutes,
      count,
      drainedMs,
      coldListMs,
      db: {
        commits: dbAfter.commits - dbBefore.commits,
        sessions: dbAfter.sessions - dbBefore.sessions,
        rowsRead: dbAfter.rowsRead - dbBefore.rowsRead,
        rowsWritten: dbAfter.rowsWritten - dbBefore.rowsWritten,
      },
      statuses: latencies.map((l) => l.latencies),
      statusErrors: latencies.map((l) => l.errors),
      cpu: {
        serves: after.serves.map((s, i) => share(s, before.serves[i]!)),
        runners: share(after.runners, before.runners),
        target: share(after.target, before.target),
        pg: share(after.pg, before.pg),
        machine: share(after.machine.busy, before.machine.busy),
      },
      load: [loadBefore, loadAfter],
      clientNice,
      idleLate,
      ...(pager ? { pages: pagesLine(pager.counts), ledger: await outageLedger(db, from) } : {}),
      slots: cfg.accounts[0]!.checks.reduce((sum, c) => sum + c.locations.length, 0),
      processes: [...serves.map((s) => s.proc), ...runners].map((p) => ({
        name: p.name,
        stderrLines: errorLines(p.stderr()),
        exited: p.child.exitCode ?? p.child.signalCode,
      })),
    };
  } finally {
    pager?.close();
    procs.keepLogs();
    await procs.stopAll();
    await cluster.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  const opts = options();
  const { minutes, checks, everyLocation, skipStatuses, failingLocation } = opts;
  const row = await measure(opts);
  const size = `${checks.toLocaleString('en')} checks${everyLocation ? ' from every location' : ''}${failingLocation ? ', one location failing' : ''}, ${minutes} min${skipStatuses ? ', no statuses requests' : ''}`;
  writeSection(`bench:scale, ${size}`, scaleReport(row));
}

main().catch(async (error: unknown) => {
  await procs.stopAll();
  process.stderr.write(`bench:scale: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
