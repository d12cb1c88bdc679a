// bench:scale's processes: the loopback target, `checkwall serve` instances and
// `checkwall runner` processes of the built program, and the CPU each used
// (from /proc: utime + stime, so it counts every thread and nothing else).
// bench:service honesty starts its targets and the bystander here too.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { createWriteStream, readFileSync, writeFileSync } from 'node:fs';
import { setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Proc {
  name: string;
  child: ChildProcess;
  /** Everything it wrote to stderr (kept for the report's error count). */
  stderr(): string;
}

const all: Proc[] = [];
const TICKS_PER_SECOND = 100; // USER_HZ on Linux

// Answers at once: the runs measure the path through the service, not a target.
const TARGET = `
const http = require('node:http');
// GET /fail/<location> makes it answer 503 to runs from that location (x-checkwall-location): a broken location.
let failing = null;
const server = http.createServer((req, res) => {
  if (req.url.startsWith('/fail/')) failing = req.url.slice(6) || null;
  else if (failing !== null && req.headers['x-checkwall-location'] === failing) res.statusCode = 503;
  res.end('ok');
});
server.keepAliveTimeout = 5000;
// The same answers on 127.0.0.2-10 and the same port: distinct target hosts (a broken location
// is told from one broken host by how many hosts fail), all on loopback.
server.listen(0, '127.0.0.1', () => {
  const port = server.address().port;
  for (let i = 2; i <= 10; i++) http.createServer(server.listeners('request')[0]).listen(port, '127.0.0.' + i);
  process.stdout.write('listening on http://127.0.0.1:' + port + '\\n');
});
`;

function start(name: string, args: string[], env: NodeJS.ProcessEnv = {}): Proc {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-100_000)));
  // CHECKWALL_BENCH_LOGS=<dir>: each process's whole stdout (its log) to <dir>/<name>.log, to read after a run.
  const logs = process.env.CHECKWALL_BENCH_LOGS;
  if (logs) child.stdout!.pipe(createWriteStream(join(logs, `${name}.log`)));
  const proc = { name, child, stderr: () => err };
  all.push(proc);
  return proc;
}

/** Resolves with the first match of `re` in the process's stdout; rejects when it exits first. */
function lineOf(proc: Proc, re: RegExp, timeoutMs: number): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(
      () => reject(new Error(`${proc.name}: no ${re} within ${timeoutMs} ms\n${out}\n${proc.stderr()}`)),
      timeoutMs,
    );
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = re.exec(out);
      if (!m) return;
      clearTimeout(timer);
      proc.child.stdout!.off('data', onData);
      proc.child.stdout!.resume(); // keep draining: a full pipe would stall the process
      resolve(m);
    };
    proc.child.stdout!.on('data', onData);
    proc.child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${proc.name} exited (${code}) before ${re}:\n${out}\n${proc.stderr()}`));
    });
  });
}

/** A process that says "listening on URL" once it serves; stopAll() ends it. */
export async function listening(
  name: string,
  args: string[],
  timeoutMs: number,
): Promise<{ proc: Proc; url: string }> {
  const proc = start(name, args);
  return { proc, url: (await lineOf(proc, /listening on (\S+)/, timeoutMs))[1]! };
}

export const startTarget = () => listening('target', ['-e', TARGET], 10_000);

export const startServe = (name: string, db: string, config: string, port: number) =>
  listening(
    name,
    [
      // CHECKWALL_BENCH_PROF=<dir>: a CPU profile of each instance's main thread, written at its exit.
      ...(process.env.CHECKWALL_BENCH_PROF
        ? [
            '--cpu-prof',
            '--cpu-prof-dir',
            process.env.CHECKWALL_BENCH_PROF,
            '--cpu-prof-name',
            `${name}.cpuprofile`,
          ]
        : []),
      'bin/checkwall.js',
      'serve',
      ...['--port', String(port), '--db', db, '--config', config],
    ],
    120_000,
  );

/** A loopback port free now: the instances' ports are known before they start, so runners start with them. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export async function startRunner(
  name: string,
  service: string,
  location: string,
  token: string,
  concurrency: number,
): Promise<Proc> {
  const proc = start(
    name,
    [
      'bin/checkwall.js',
      'runner',
      '--service',
      service,
      '--location',
      location,
      '--runner-id',
      name,
      '--concurrency',
      String(concurrency),
    ],
    // The token from the environment, as the runner's usage advises: never on a command line.
    { CHECKWALL_RUNNER_TOKEN: token },
  );
  // Started before its instance listens, it says "back in touch" once it does.
  await lineOf(proc, /connected to|back in touch with/, 60_000);
  return proc;
}

/** Each process's stderr to a file of the temp directory, to read after a run. */
export function keepLogs(): void {
  for (const p of all)
    if (p.stderr()) writeFileSync(join(tmpdir(), `checkwall-scale-${p.name}.log`), p.stderr());
}

export async function stopAll(): Promise<void> {
  const exits = all.map(
    (p) =>
      new Promise<void>((resolve) => {
        if (p.child.exitCode !== null || p.child.signalCode !== null) return resolve();
        p.child.once('exit', () => resolve());
        p.child.kill('SIGTERM');
        setTimeout(() => p.child.kill('SIGKILL'), 10_000).unref();
      }),
  );
  await Promise.all(exits);
  all.length = 0;
}

/**
 * Raises a process (this one by default) to nice -10, above the processes it measures or
 * serves: a bench's instrument. Lowering a nice value needs root (or CAP_SYS_NICE); without
 * it, undefined, and the report says so.
 */
export function raise(pid = 0): number | undefined {
  try {
    setPriority(pid, -10);
    return -10;
  } catch {
    return undefined;
  }
}

/** CPU seconds a process has used so far (all its threads); 0 once it is gone. */
export function cpuSeconds(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // After the name: state is field 3, utime 14 and stime 15 (1-based over the whole line).
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** The PostgreSQL server's processes: the postmaster (postmaster.pid) and its children (backends, workers). */
export function pgPids(dataDir: string): number[] {
  try {
    const postmaster = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    const children = readFileSync(`/proc/${postmaster}/task/${postmaster}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
    return [postmaster, ...children];
  } catch {
    return [];
  }
}

/** The machine's busy and total CPU time so far (/proc/stat), to tell our share from the others'. */
export function machineTicks(): { busy: number; total: number } {
  const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.split(/\s+/).slice(1).map(Number);
  const total = cpu.reduce((a, b) => a + b, 0);
  const idle = (cpu[3] ?? 0) + (cpu[4] ?? 0);
  return { busy: (total - idle) / TICKS_PER_SECOND, total: total / TICKS_PER_SECOND };
}
