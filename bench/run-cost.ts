// bench:run-cost: what one api run costs in CPU on its own, against what the HTTP
// clients under it cost, at two warmths of V8's code. bench:probe's fitted line calls
// "standing" whatever does not grow with the rate; this bench shows how much of that is
// the runs' own code running cooler at a low rate. Each client runs in a fresh process
// (its own V8 tiers): `warm` requests first, then `runs` measured, CPU as the process's
// user + system time (every thread: V8's compiler and collector threads too), one after
// the other against one loopback target that answers at once.
//   job     a run as the run worker makes it (executeJob: dns, connect, undici, marks, result)
//   undici  undici's Client on a fresh connection, the body read: what the run is built on
//   http    node:http on a fresh connection (agent: false), the body read
//   net     a socket that writes the request and reads to the end: no HTTP client at all
// "cool" is the run worker's tiering state at 5 runs/s in bench:probe's window (30 s of
// warm-up, 60 s measured: 150 and 300 runs); "hot" is after thousands.
// Prints a table; the figures worth keeping go to BENCHMARKS.md by hand.
import { spawn } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Client } from 'undici';
import { CheckConfigSchema } from '../src/server/config/schema.js';
import { executeJob, type RunJob } from '../src/server/runners/job-protocol.js';
import { startTarget, stopAll } from './scale-procs.js';

const KINDS = ['job', 'undici', 'http', 'net'] as const;
type Kind = (typeof KINDS)[number];
const WARMTHS = [
  { name: 'cool (5/s in the window)', warm: 150, runs: 300 },
  { name: 'hot', warm: 3000, runs: 1000 },
];

function request(kind: Kind, target: URL, job: RunJob): Promise<void> {
  const port = Number(target.port);
  switch (kind) {
    case 'job':
      return executeJob(job, AbortSignal.timeout(10_000)).then((r) => {
        if (r.status !== 'success') throw new Error(`the run failed: ${r.error ?? r.status}`);
      });
    case 'undici':
      return (async () => {
        const client = new Client(target.origin, { pipelining: 0 });
        const { body } = await client.request({ path: target.pathname, method: 'GET' });
        await body.text();
        await client.close();
      })();
    case 'http':
      return new Promise((resolve, reject) => {
        const req = http.request(
          { host: target.hostname, port, path: target.pathname, agent: false },
          (res) => {
            res.on('data', () => undefined).on('end', resolve);
          },
        );
        req.on('error', reject).end();
      });
    case 'net':
      return new Promise((resolve, reject) => {
        const socket = net.connect(port, target.hostname, () =>
          socket.end(`GET ${target.pathname} HTTP/1.1\r\nHost: ${target.host}\r\nConnection: close\r\n\r\n`),
        );
        socket
          .on('data', () => undefined)
          .on('end', resolve)
          .on('error', reject);
      });
  }
}

/** In a fresh process: `warm` requests, then the CPU of `runs` more, in ms a run. */
async function child(kind: Kind, target: URL, warm: number, runs: number) {
  const check = CheckConfigSchema.parse({
    id: 'cost',
    name: 'cost',
    type: 'api',
    target: target.href,
    locations: ['here'],
  });
  const job: RunJob = {
    accountId: 'bench',
    check,
    location: { id: 'here', name: 'here', region: 'here' },
    triggeredBy: 'schedule',
    maxStoredBodyBytes: 4096,
  };
  for (let i = 0; i < warm; i++) await request(kind, target, job);
  const before = process.cpuUsage();
  for (let i = 0; i < runs; i++) await request(kind, target, job);
  const used = process.cpuUsage(before);
  process.stdout.write(JSON.stringify((used.user + used.system) / 1000 / runs));
}

function inChild(kind: Kind, target: string, warm: number, runs: number): Promise<number> {
  const args = [fileURLToPath(import.meta.url), '--child', kind, '--target', target];
  args.push('--warm', String(warm), '--runs', String(runs));
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    proc.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    proc.on('error', reject);
    proc.on('exit', (code) =>
      code === 0 ? resolve(Number(out)) : reject(new Error(`${kind} exited with ${code}`)),
    );
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main() {
  const { values } = parseArgs({
    options: {
      child: { type: 'string' },
      target: { type: 'string' },
      warm: { type: 'string' },
      runs: { type: 'string' },
      // Fresh processes per client and warmth; the median is printed.
      repeat: { type: 'string', default: '3' },
    },
  });
  if (values.child) {
    await child(values.child as Kind, new URL(values.target!), Number(values.warm), Number(values.runs));
    return;
  }
  try {
    const { url } = await startTarget();
    const target = `${url}/cost`;
    console.log(`ms of CPU a run (median of ${values.repeat} processes each)`);
    console.log(['warmth', ...KINDS].join('\t'));
    for (const w of WARMTHS) {
      const row: string[] = [w.name];
      for (const kind of KINDS) {
        const each: number[] = [];
        for (let i = 0; i < Number(values.repeat); i++)
          each.push(await inChild(kind, target, w.warm, w.runs));
        row.push(median(each).toFixed(3));
      }
      console.log(row.join('\t'));
    }
  } finally {
    await stopAll();
  }
}

await main();
