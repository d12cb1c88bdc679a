// bench:console — the console against a service holding 10,000 checks: first
// board, key-press latency, idle CPU, RSS and bytes per poll of the real program
// (bin/checkwall.js, default settings) in a pty; and the heap over 10,000
// refreshes of the board's store and App, in a process of its own
// (bench/console-heap.ts) that runs during the idle minute.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient, readAllStatuses } from '../src/api/client.js';
import { pollingCase, type PollingFigures } from './console-polling.js';
import type { HeapFigures, HeapInput } from './console-heap.js';
import {
  boardOrder,
  bytesPerPoll,
  COLS,
  firstBoard,
  idle,
  keyLatencies,
  launch,
  ROWS,
  watchPolls,
  type PollBytes,
} from './console-terminal.js';
import { ACCOUNT, KEY, RUNS_PER_LOCATION, startFleet } from './fleet.js';
import { cpuSeconds, rssBytes } from './pty.js';
import { fmt, quantiles, writeSection } from './report.js';
import { kb, mb } from './soak.js';

const CHECKS = Number(process.env['BENCH_CHECKS'] ?? 10_000);
const IDLE_SECONDS = Number(process.env['BENCH_IDLE_SECONDS'] ?? 60);
const PRESSES = Number(process.env['BENCH_PRESSES'] ?? 100);
const REFRESHES = Number(process.env['BENCH_REFRESHES'] ?? 10_000);
const POLL_ROUNDS = 3;
const POLL_IDLE_SECONDS = Number(process.env['BENCH_POLL_IDLE_SECONDS'] ?? 30);
// With the idle part, longer than the 50 s between two whole-list reads at a 5 s refresh.
const POLL_KEY_SECONDS = Number(process.env['BENCH_POLL_KEY_SECONDS'] ?? 60);
const SLOW_PAGE_MS = 60;
const LOAD = os.loadavg()[0]!.toFixed(1);
// The soak draws an 80x24 board: the store's work is the same at any size, and a
// 120x40 frame would make 10,000 refreshes take minutes longer.
const SOAK_SIZE = { cols: 80, rows: 24 };

interface Figures {
  seeded: number;
  first: number;
  /** CPU seconds and RSS of the program when its first board was drawn. */
  start: { cpu: number; rss: number };
  keyCpuMs: number;
  cpu: { cpuPercent: number; rss: number };
  keys: ReturnType<typeof quantiles>;
  presses: number;
  bytes: PollBytes;
  rss: number;
  pollMs: ReturnType<typeof quantiles>;
  heap: HeapFigures;
}

async function main() {
  const t0 = performance.now();
  const fleet = await startFleet(CHECKS);
  const seeded = (performance.now() - t0) / 1_000;
  const polls = watchPolls(fleet);
  log(`service with ${CHECKS} checks ready in ${seeded.toFixed(1)} s`);
  const client = createClient({ baseUrl: fleet.url, apiKey: KEY, accountId: ACCOUNT });
  const { checks, summary } = await readAllStatuses(client);
  await client.close();
  const order = boardOrder(checks);
  if (process.env['BENCH_CASES_ONLY'] === '1') {
    const cases = await runCases(fleet, polls);
    await fleet.close();
    writeSection('bench:console, 5 s refresh', casesReport(cases));
    return;
  }

  const program = launch(fleet, 10);
  const first = await firstBoard(program, order);
  const pid = program.pid();
  const start = { cpu: cpuSeconds(pid), rss: rssBytes(pid) };
  log(`first board ${first.toFixed(0)} ms; idle for ${IDLE_SECONDS} s while the soak runs apart`);
  // The soak runs in its own process meanwhile: the idle figure is the console's own CPU time.
  const soaking = runSoak({ checks, summary: summary ?? null, cycles: REFRESHES, ...SOAK_SIZE });
  const cpu = await idle(program, IDLE_SECONDS);
  log(`idle ${cpu.cpuPercent.toFixed(2)} % of a core; waiting for the soak`);
  const heap = await soaking;
  log(`soak done; key presses`);
  const keyCpu = cpuSeconds(pid);
  const keys = quantiles(await keyLatencies(program, order, PRESSES));
  const keyCpuMs = ((cpuSeconds(pid) - keyCpu) * 1_000) / (PRESSES * 2);
  log(
    `keys p50 ${fmt(keys.p50)} p95 ${fmt(keys.p95)} max ${fmt(keys.max)}, ${keyCpuMs.toFixed(1)} ms of CPU a press; bytes per poll`,
  );
  const bytes = await bytesPerPoll(program, fleet, polls, POLL_ROUNDS, () => program.write('r'));
  const rss = rssBytes(pid);
  await program.stop();
  const sweeps = polls.filter((p) => !Number.isNaN(p.end) && p.sweep);
  const pollMs = quantiles(sweeps.map((p) => p.end - p.start));
  const cases = await runCases(fleet, polls);
  await fleet.close();
  writeSection(
    'bench:console',
    report({
      seeded,
      first,
      start,
      cpu,
      keys,
      keyCpuMs,
      presses: PRESSES * 2,
      bytes,
      rss,
      pollMs,
      heap,
    }),
  );
  writeSection('bench:console, 5 s refresh', casesReport(cases));
}

/** The 5 s cases, on the project's service and behind a slow proxy, each with a console of its own. */
async function runCases(fleet: Awaited<ReturnType<typeof startFleet>>, polls: ReturnType<typeof watchPolls>) {
  // Earlier rounds may have turned checks failing: the board's order is read again.
  const client = createClient({ baseUrl: fleet.url, apiKey: KEY, accountId: ACCOUNT });
  const order = boardOrder((await readAllStatuses(client)).checks);
  await client.close();
  const cases: PollingFigures[] = [];
  for (const [name, delayMs] of [
    ['5 s refresh', 0],
    [`5 s refresh, ${SLOW_PAGE_MS} ms a page`, SLOW_PAGE_MS],
  ] as const) {
    log(`${name}: ${POLL_IDLE_SECONDS} s idle, then ${POLL_KEY_SECONDS} s of keys`);
    const c = {
      name,
      refreshSeconds: 5,
      delayMs,
      keySeconds: POLL_KEY_SECONDS,
      idleSeconds: POLL_IDLE_SECONDS,
    };
    cases.push(await pollingCase(fleet, polls, order, c));
  }
  return cases;
}

function casesReport(cases: PollingFigures[]): string {
  const n = CHECKS.toLocaleString('en');
  return `The fleet of \`bench:console\` (${n} checks, ${Math.ceil(CHECKS / 100)} pages), a fresh \`bin/checkwall.js console --refresh 5\`
for each case, in a ${COLS}x${ROWS} pty. The slow case puts a proxy in front of the service that holds every request
${SLOW_PAGE_MS} ms. Requests, 304s and body bytes are counted at the service. Load average ${LOAD} when the bench started.${process.env['BENCH_NOTE'] ? `\n\n${process.env['BENCH_NOTE']}` : ''}

${pollingTable(cases)}

- "While a poll ran": a statuses request was in flight when the key was sent, or the last answer came less
  than 300 ms before (the worker compares and posts, the UI applies).
- The whole list is read every 10th refresh at ${n} checks (\`src/domain/poll-tiers.ts\`); the other polls read
  the failing and degraded lists (${Math.ceil((CHECKS * 0.01) / 100) + Math.ceil((CHECKS * 0.02) / 100)} pages).`;
}

/** bench/console-heap.js in a process of its own, the statuses handed over in a file. */
async function runSoak(input: HeapInput): Promise<HeapFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'checkwall-soak-'));
  const file = join(dir, 'statuses.json');
  writeFileSync(file, JSON.stringify(input));
  const script = fileURLToPath(new URL('./console-heap.js', import.meta.url));
  const child = spawn(process.execPath, ['--expose-gc', script, file], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  rmSync(dir, { recursive: true, force: true });
  if (code !== 0) throw new Error(`the soak failed (exit ${code})`);
  return JSON.parse(out.trim().split('\n').at(-1)!) as HeapFigures;
}

const median = (xs: number[]) => quantiles(xs).p50;
const mark = (ok: boolean) => (ok ? 'met' : '**missed**');

function pollingTable(cases: PollingFigures[]): string {
  const row = (
    m: string,
    aim: string,
    cell: (c: PollingFigures) => string,
    ok?: (c: PollingFigures) => boolean,
  ) => `| ${m} | ${cases.map((c) => `${cell(c)}${ok ? ` (${mark(ok(c))})` : ''}`).join(' | ')} | ${aim} |`;
  const lines = [
    `Refreshing every 5 s, ${POLL_IDLE_SECONDS} s with nothing typed, then ${POLL_KEY_SECONDS} s of j/k presses while the polls go on:`,
    '',
    `| measure | ${cases.map((c) => c.name).join(' | ')} | aim |`,
    `|---|${cases.map(() => '---|').join('')}---|`,
    row(
      'key press to frame, all presses',
      'p95 < 16 ms, none > 50 ms',
      (c) => `${c.presses}: p50 ${fmt(c.keys.p50)}, p95 ${fmt(c.keys.p95)}, max ${fmt(c.keys.max)}`,
      (c) => c.keys.p95 < 16 && c.keys.max <= 50,
    ),
    row(
      'key press to frame, pressed while a poll ran',
      'the same',
      (c) =>
        `${c.pressesDuringPoll}: p50 ${fmt(c.keysDuringPoll.p50)}, p95 ${fmt(c.keysDuringPoll.p95)}, max ${fmt(c.keysDuringPoll.max)}`,
    ),
    row('polls seen (whole-list sweeps among them)', '', (c) => `${c.polls} (${c.sweeps})`),
    row(
      'requests a minute, idle',
      `< ${50 * 60 * 0.2} (a fifth of the service's limit)`,
      (c) => c.requestsPerMinute.toFixed(0),
      (c) => c.requestsPerMinute < 600,
    ),
    row('answers that were 304', '', (c) => `${(c.notModifiedShare * 100).toFixed(0)} %`),
    row(
      'bytes on the wire a poll (median): hot / sweep',
      '',
      (c) => `${kb(c.bytesPerPoll.hot)} / ${kb(c.bytesPerPoll.sweep)}`,
    ),
    row('CPU, idle', '', (c) => `${c.cpuPercent.toFixed(2)} % of a core, ${fmt(c.cpuMsPerPoll)} a poll`),
    row(
      'RSS at the end',
      '≤ 150 MB',
      (c) => mb(c.rss),
      (c) => c.rss <= 150 * 2 ** 20,
    ),
  ];
  return lines.join('\n');
}

function report(f: Figures): string {
  const h = f.heap;
  const touched = median(f.bytes.touched);
  const rows: Array<[string, string, string, boolean]> = [
    [
      'process start to a full first board',
      `${f.first.toFixed(0)} ms (${(f.start.cpu * 1_000).toFixed(0)} ms of CPU by then)`,
      '< 1 s',
      f.first < 1_000,
    ],
    [
      `key press (j/k) to frame, ${f.presses} presses`,
      `p50 ${fmt(f.keys.p50)}, p95 ${fmt(f.keys.p95)}, max ${fmt(f.keys.max)}; ${fmt(f.keyCpuMs)} of CPU a press`,
      'p95 < 16 ms',
      f.keys.p95 < 16,
    ],
    [
      'bytes written per poll, one visible check changed',
      `${kb(touched)} (median of ${f.bytes.touched.length})`,
      '< 4 KB',
      touched < 4_096,
    ],
    [
      'resident memory (RSS)',
      `${mb(f.start.rss)} at the first board, ${mb(f.cpu.rss)} after the idle minute, ${mb(f.rss)} at the end`,
      '≤ 150 MB',
      Math.max(f.start.rss, f.cpu.rss, f.rss) <= 150 * 2 ** 20,
    ],
    [
      `CPU over ${IDLE_SECONDS} idle seconds`,
      `${f.cpu.cpuPercent.toFixed(2)} % of one core`,
      '< 2 %',
      f.cpu.cpuPercent < 2,
    ],
    [
      `heap over ${h.cycles.toLocaleString('en')} refreshes`,
      `${mb(h.heapBefore)} before, ${mb(h.heapAfter)} after; slope ${kb(h.slopePer1000)} per 1,000 (second half ${kb(h.lateSlopePer1000)})`,
      'flat',
      Math.abs(h.lateSlopePer1000) < 256 * 1024,
    ],
  ];
  const n = CHECKS.toLocaleString('en');
  return `${n} checks over 3 locations in the project's own service on 127.0.0.1 (in the bench's process),
scheduler off, storage pre-seeded with ${RUNS_PER_LOCATION} runs per location per check (1 % failing, 2 % degraded, 1 % never
run), every status computed before the console starts (${f.seeded.toFixed(1)} s to seed). The console is
\`bin/checkwall.js console\` with default settings (refresh 10 s) in a ${COLS}x${ROWS} pseudo-terminal
(util-linux \`script\`); bytes are what it wrote to the pty. Load average ${LOAD} when the bench started: on a
machine shared with other work, times and CPU shares read high.${process.env['BENCH_NOTE'] ? `\n\n${process.env['BENCH_NOTE']}` : ''}

| measure | figure | aim | |
|---|---|---|---|
${rows.map(([m, v, aim, ok]) => `| ${m} | ${v} | ${aim} | ${mark(ok)} |`).join('\n')}

- The statuses are polled in a worker thread. At ${n} checks (${Math.ceil(CHECKS / 100)} pages) the polling is tiered: the failing and
  degraded checks every refresh, the whole list every 10th; each page a conditional GET (a 304 when unchanged).
  A whole-list poll: p50 ${fmt(f.pollMs.p50)}, max ${fmt(f.pollMs.max)} from the first request to the last answer.
  The 5 s refresh cases are in the next section.
- Per poll in which one more check turns failing (it enters the worst-first list and the rows below it
  shift): median ${kb(median(f.bytes.turned))}. A clock tick with no poll: median ${kb(median(f.bytes.tick))}.
- The idle minute is the console's own CPU time (/proc) with nothing typed and the statuses unchanged (the
  service's scheduler is off): six polls of 100 pages whose answers are byte for byte the same.
- Key presses are sent 70-120 ms after the previous frame (a person tapping j, then k); latency is from
  writing the key to the pty until the frame with the new selected row arrives.
- Heap: a process of its own (running during the idle minute) holds the board's store and App, drawn by Ink
  into a ${SOAK_SIZE.cols}x${SOAK_SIZE.rows} fake terminal through the console's screen writer; ${h.cycles.toLocaleString('en')} refreshes of \`applyStatuses\`
  with all ${n} statuses (100 fresh equal objects, one changed check off screen (from a fixed 500, gone through
  in the 1,000-refresh warm-up) and one on it, a status flip every tenth refresh) and the clock 1 s on, in ${h.seconds.toFixed(0)} s (${fmt(h.msPerCycle)} each, ${kb(h.bytesPerCycle)} written each).
  Heap after a full GC, sampled 20 times; RSS of that process ${mb(h.rssBefore)} to ${mb(h.rssAfter)}.
- \`applyStatuses\` on a poll's worth of fresh objects (all ${n} parsed anew): p50 ${fmt(h.applyFreshMs)} with none changed,
  ${fmt(h.applyOneChangedMs)} with one changed.`;
}

const began = performance.now();
function log(message: string) {
  process.stderr.write(`bench:console ${((performance.now() - began) / 1_000).toFixed(0)}s: ${message}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
