// bench:threads: where a `checkwall serve`'s standing CPU goes, thread by thread.
// 500 api checks at one location against one loopback target at a rate given with
// `--rate` (0: the same service with no checks), after a warm-up; CPU per thread
// is utime + stime from /proc/<pid>/task/<tid>/stat over the window, which stays
// fair on a loaded machine where wall-clock timings are not. Prints a table; the
// figures worth keeping go to BENCHMARKS.md by hand.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ServiceConfigSchema } from '../src/server/config/schema.js';
import { seedSteady } from './seed.js';
import { cpuSeconds, freePort, listening, startTarget, stopAll } from './scale-procs.js';

const ACCOUNT = '9b0be000-7c1e-4d8a-9f2b-3c4d5e6f7a8b';
const CHECKS = 500;
const TICKS_PER_SECOND = 100;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface ThreadTicks {
  name: string;
  ticks: number;
  user: number;
  /** Voluntary context switches: each is a wake-up of the thread (a timer, a message, I/O). */
  wakes: number;
}

/** Each thread's name, CPU ticks (user and system) and wake-ups so far, by thread id. */
function threadTicks(pid: number): Map<string, ThreadTicks> {
  const out = new Map<string, ThreadTicks>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const status = readFileSync(`/proc/${pid}/task/${tid}/status`, 'utf8');
      const wakes = Number(/voluntary_ctxt_switches:\s+(\d+)/.exec(status)?.[1] ?? 0);
      out.set(tid, { name, ticks: Number(fields[11]) + Number(fields[12]), user: Number(fields[11]), wakes });
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return out;
}

async function main() {
  const { values } = parseArgs({
    options: {
      rate: { type: 'string', default: '5' },
      // How many checks share the rate (their period is checks ÷ rate): more checks at one
      // rate mean fewer ticks a second, each holding more runs (plan.ts's grid).
      checks: { type: 'string', default: String(CHECKS) },
      warm: { type: 'string', default: '20' },
      window: { type: 'string', default: '60' },
      // A directory for the service's CPU profiles (node --cpu-prof), one per thread.
      prof: { type: 'string' },
      // Flags for the service's node, space-separated (an A/B of V8 settings).
      'node-args': { type: 'string', default: '' },
    },
  });
  const rate = Number(values.rate);
  const count = Number(values.checks);
  const dir = mkdtempSync(join(tmpdir(), 'checkwall-threads-'));
  try {
    const { url: target } = await startTarget();
    const checks =
      rate === 0
        ? []
        : Array.from({ length: count }, (_, i) => ({
            id: `c${i}`,
            name: `c${i}`,
            type: 'api',
            target: `${target}/c${i}`,
            frequency: `${count / rate}s`,
            locations: ['here'],
          }));
    const cfg = ServiceConfigSchema.parse({
      accounts: [
        {
          id: ACCOUNT,
          apiKeys: ['cw_bench_threads_0123456789abcdef'],
          locations: [{ id: 'here', name: 'Here', region: 'loopback' }],
          checks,
        },
      ],
      maxConcurrentRuns: 64,
    });
    const config = join(dir, 'threads.json');
    const db = join(dir, 'threads.db');
    writeFileSync(config, JSON.stringify(cfg), { mode: 0o600 });
    await seedSteady(db, ACCOUNT, cfg);
    const port = String(await freePort());
    const serveArgs = ['bin/checkwall.js', 'serve', '--port', port, '--db', db, '--config', config];
    const { proc } = await listening(
      'threads',
      [
        ...(values.prof ? ['--cpu-prof', `--cpu-prof-dir=${values.prof}`] : []),
        ...values['node-args'].split(' ').filter(Boolean),
        ...serveArgs,
      ],
      120_000,
    );
    const pid = proc.child.pid!;
    await sleep(Number(values.warm) * 1000);
    const before = threadTicks(pid);
    const cpu0 = cpuSeconds(pid);
    const t0 = performance.now();
    await sleep(Number(values.window) * 1000);
    const after = threadTicks(pid);
    const cpu1 = cpuSeconds(pid);
    const seconds = (performance.now() - t0) / 1000;
    const perS = (now: number, then = 0) => ((now - then) * (1000 / TICKS_PER_SECOND)) / seconds;
    const rows = [...after].map(([tid, { name, ticks, user, wakes }]) => ({
      tid,
      name,
      msPerS: perS(ticks, before.get(tid)?.ticks),
      userPerS: perS(user, before.get(tid)?.user),
      wakesPerS: (wakes - (before.get(tid)?.wakes ?? 0)) / seconds,
    }));
    rows.sort((a, b) => b.msPerS - a.msPerS);
    const total = rows.reduce((sum, r) => sum + r.msPerS, 0);
    console.log(
      `rate ${rate}/s, ${seconds.toFixed(0)} s window, load ${readFileSync('/proc/loadavg', 'utf8').trim()}`,
    );
    for (const r of rows)
      if (r.msPerS > 0 || r.wakesPerS >= 1)
        console.log(
          `${r.tid}\t${r.name}\t${r.msPerS.toFixed(1)} ms/s (user ${r.userPerS.toFixed(1)})\t${r.wakesPerS.toFixed(1)} wakes/s`,
        );
    console.log(`total\t${total.toFixed(1)} ms/s`);
    // The process's own count (bench:probe's) also holds threads that ended in the window.
    console.log(`process\t${(((cpu1 - cpu0) * 1000) / seconds).toFixed(1)} ms/s`);
  } finally {
    await stopAll();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
