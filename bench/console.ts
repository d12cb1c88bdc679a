// bench:console — the console against a service holding 10,000 checks: first
// board, key-press latency, idle CPU, RSS and bytes per poll of the real program
// in a pty (bin/checkwall.js, default settings); then the heap over 10,000
// refreshes of the board's store and App in this process.
import { createClient, readAllStatuses } from '../src/api/client.js';
import type { HeapFigures } from './console-heap.js';
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
import { ACCOUNT, KEY, startFleet } from './fleet.js';
import { rssBytes } from './pty.js';
import { fmt, quantiles, writeSection } from './report.js';
import { kb, mb } from './soak.js';

const CHECKS = Number(process.env['BENCH_CHECKS'] ?? 10_000);
const IDLE_SECONDS = Number(process.env['BENCH_IDLE_SECONDS'] ?? 60);
const PRESSES = Number(process.env['BENCH_PRESSES'] ?? 150);
const REFRESHES = Number(process.env['BENCH_REFRESHES'] ?? 10_000);
const POLL_ROUNDS = 4;

interface Figures {
  seeded: number;
  first: number;
  cpu: { cpuPercent: number; rss: number };
  keys: ReturnType<typeof quantiles>;
  presses: number;
  bytes: PollBytes;
  rss: number;
  pollMs: ReturnType<typeof quantiles>;
  heap: HeapFigures;
}

async function main() {
  // React's production build, as bin/checkwall.js has it, before anything loads React;
  // and Ink must draw live frames in this process's soak even where CI is set.
  process.env['NODE_ENV'] = 'production';
  delete process.env['CI'];
  delete process.env['CONTINUOUS_INTEGRATION'];
  const t0 = performance.now();
  const fleet = await startFleet(CHECKS);
  const seeded = (performance.now() - t0) / 1_000;
  const polls = watchPolls(fleet);
  const order = boardOrder(CHECKS);
  log(`service with ${CHECKS} checks ready in ${seeded.toFixed(1)} s`);

  const program = launch(fleet, 10);
  const first = await firstBoard(program, order);
  log(`first board ${first.toFixed(0)} ms; idle for ${IDLE_SECONDS} s`);
  const cpu = await idle(program, IDLE_SECONDS);
  log(`idle ${cpu.cpuPercent.toFixed(2)} % of a core; key presses`);
  const keys = quantiles(await keyLatencies(program, order, PRESSES));
  log(`keys p50 ${fmt(keys.p50)} p95 ${fmt(keys.p95)}; bytes per poll`);
  const bytes = await bytesPerPoll(program, fleet, polls, POLL_ROUNDS, () => program.write('r'));
  const rss = rssBytes(program.pid());
  await program.stop();
  const pollMs = quantiles(polls.filter((p) => !Number.isNaN(p.end)).map((p) => p.end - p.start));

  const client = createClient({ baseUrl: fleet.url, apiKey: KEY, accountId: ACCOUNT });
  const { checks, summary } = await readAllStatuses(client);
  await client.close();
  await fleet.close();
  log(`heap over ${REFRESHES} refreshes`);
  const { heapSoak } = await import('./console-heap.js');
  const heap = await heapSoak(checks, summary ?? null, REFRESHES, COLS, ROWS);
  writeSection(
    'bench:console',
    report({ seeded, first, cpu, keys, presses: PRESSES * 2, bytes, rss, pollMs, heap }),
  );
}

const median = (xs: number[]) => quantiles(xs).p50;
const mark = (ok: boolean) => (ok ? 'met' : '**missed**');

function report(f: Figures): string {
  const h = f.heap;
  const touched = median(f.bytes.touched);
  const rows: Array<[string, string, string, boolean]> = [
    ['process start to a full first board', `${f.first.toFixed(0)} ms`, '< 1 s', f.first < 1_000],
    [
      `key press (j/k) to frame, ${f.presses} presses`,
      `p50 ${fmt(f.keys.p50)}, p95 ${fmt(f.keys.p95)}, max ${fmt(f.keys.max)}`,
      'p95 < 16 ms',
      f.keys.p95 < 16,
    ],
    [
      'bytes written per poll, one visible check changed',
      `${kb(touched)} (median of ${f.bytes.touched.length})`,
      '< 4 KB',
      touched < 4_096,
    ],
    ['resident memory (RSS) at the end', mb(f.rss), '< 150 MB', f.rss < 150 * 2 ** 20],
    [
      `CPU over ${IDLE_SECONDS} idle seconds`,
      `${f.cpu.cpuPercent.toFixed(2)} % of one core (RSS then ${mb(f.cpu.rss)})`,
      '< 2 %',
      f.cpu.cpuPercent < 2,
    ],
    [
      `heap over ${h.cycles.toLocaleString('en')} refreshes`,
      `${mb(h.heapBefore)} before, ${mb(h.heapAfter)} after; slope ${kb(h.slopePer1000)} per 1,000`,
      'flat',
      Math.abs(h.slopePer1000) < 256 * 1024,
    ],
  ];
  return `${CHECKS.toLocaleString('en')} checks over 3 locations in the project's own service on 127.0.0.1 (in the
bench's process), scheduler off, storage pre-seeded with 3 runs per location per check (1 % failing,
2 % degraded, 1 % never run), all statuses computed before the console starts (${f.seeded.toFixed(1)} s to seed).
The console is \`bin/checkwall.js console\` with default settings (refresh 10 s, 15 fps, incremental
rendering) in a ${COLS}x${ROWS} pseudo-terminal (util-linux \`script\`); bytes are what it wrote to the pty.

| measure | figure | aim | |
|---|---|---|---|
${rows.map(([m, v, aim, ok]) => `| ${m} | ${v} | ${aim} | ${mark(ok)} |`).join('\n')}

- One poll reads ${Math.ceil(CHECKS / 100)} pages of 100: p50 ${fmt(f.pollMs.p50)}, max ${fmt(f.pollMs.max)} from the first request to the last answer.
- Per poll in which one more check turns failing (it enters the worst-first list and the rows below it
  shift): median ${kb(median(f.bytes.turned))}. A clock tick with no poll (ages move on): median ${kb(median(f.bytes.tick))}.
- Key presses are sent 70-120 ms after the previous frame (a person tapping j, then k); latency is from
  writing the key to the pty until the frame with the new selected row arrives.
- Heap: ${h.cycles.toLocaleString('en')} cycles of \`applyStatuses\` with all ${CHECKS.toLocaleString('en')} statuses (100 of them fresh equal
  objects, one changed, a status flip every tenth cycle) plus a clock tick, each drawn by Ink into a
  ${COLS}x${ROWS} fake terminal, in ${h.seconds.toFixed(0)} s (${fmt(h.msPerCycle)} a cycle, ${kb(h.bytesPerCycle)} written a cycle).
  Heap after a full GC; RSS ${mb(h.rssBefore)} to ${mb(h.rssAfter)}.
- \`applyStatuses\` on a poll's worth of fresh objects (all ${CHECKS.toLocaleString('en')} parsed anew): p50 ${fmt(h.applyFreshMs)} with none changed,
  ${fmt(h.applyOneChangedMs)} with one changed.`;
}

function log(message: string) {
  process.stderr.write(`bench:console: ${message}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
